package io.strata.core.conf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionsLoaderTest {
    @TempDir
    Path dir;

    private final OptionsLoader loader = new OptionsLoader(TestOptions.registry());

    @Test
    void unsetOptionsHaveTheirDefaults() {
        Options options = loader.build();
        assertEquals(Duration.ofSeconds(1), options.get(TestOptions.ATTR_TIMEOUT));
        assertEquals(DataSize.ofMiB(1), options.get(TestOptions.PAGE_SIZE));
        assertNull(options.get(TestOptions.SECRET_KEY));
        assertFalse(options.isSet(TestOptions.ATTR_TIMEOUT));
        assertEquals("", options.describe());
    }

    @Test
    void commandLineBeatsEnvironmentWhichBeatsTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("strata.properties"), """
                # comments are fine
                attr_timeout = 5
                buffer_size = 100MB
                max_uploads = 3
                """);

        Options options = loader
                .file(file)
                .environment(Map.of("STRATA_BUFFER_SIZE", "200MB", "STRATA_MAX_UPLOADS", "4"))
                .commandLine(List.of("max_uploads=5"))
                .build();

        assertEquals(Duration.ofSeconds(5), options.get(TestOptions.ATTR_TIMEOUT));
        assertEquals(DataSize.ofMiB(200), options.get(TestOptions.BUFFER_SIZE));
        assertEquals(5, options.get(TestOptions.MAX_UPLOADS));
        assertEquals("""
                buffer_size=200MiB (env STRATA_BUFFER_SIZE)
                max_uploads=5 (-o)
                attr_timeout=5s (%s)
                """.formatted(file), sortedLike(options.describe(), "buffer_size", "max_uploads", "attr_timeout"));
    }

    @Test
    void bareFlagMeansTrue() {
        Options options = loader.commandLine(List.of("kernel_cache")).build();
        assertTrue(options.get(TestOptions.KERNEL_CACHE));
        assertTrue(options.isSet(TestOptions.KERNEL_CACHE));
        assertFalse(new OptionsLoader(TestOptions.registry()).commandLine(List.of("kernel_cache=0")).build()
                .get(TestOptions.KERNEL_CACHE));
    }

    @Test
    void itemsAreCommaSeparatedWithinAndAcrossArguments() {
        Options options = loader.commandLine(List.of("attr_timeout=0.5,kernel_cache,,buffer_size=1GB", "umask=077"))
                .build();
        assertEquals(Duration.ofMillis(500), options.get(TestOptions.ATTR_TIMEOUT));
        assertTrue(options.get(TestOptions.KERNEL_CACHE));
        assertEquals(DataSize.ofGiB(1), options.get(TestOptions.BUFFER_SIZE));
        assertEquals(077, options.get(TestOptions.UMASK));
    }

    @Test
    void laterArgumentsWin() {
        Options options = loader.commandLine(List.of("max_uploads=1", "max_uploads=2")).build();
        assertEquals(2, options.get(TestOptions.MAX_UPLOADS));
    }

    @Test
    void aliasesWorkInEverySource() throws IOException {
        Path file = Files.writeString(dir.resolve("p"), "page_size=4MiB\n");
        assertEquals(DataSize.ofMiB(4), loaderFor().file(file).build().get(TestOptions.PAGE_SIZE));
        assertEquals(DataSize.ofMiB(8), loaderFor().environment(Map.of("STRATA_PAGE_SIZE", "8MiB")).build()
                .get(TestOptions.PAGE_SIZE));
        assertEquals(DataSize.ofMiB(2), loaderFor().commandLine(List.of("page_size=2MiB")).build()
                .get(TestOptions.PAGE_SIZE));
    }

    @Test
    void environmentNamesAreUpperCaseWithUnderscores() {
        assertEquals("STRATA_ATTR_TIMEOUT", OptionsLoader.envName("attr_timeout"));
        assertEquals("STRATA_S3_SECRET_KEY", OptionsLoader.envName("s3.secret_key"));
        Options options = loader.environment(Map.of("STRATA_S3_SECRET_KEY", "k", "STRATA_UNKNOWN", "x",
                "ATTR_TIMEOUT", "9")).build();
        assertEquals("k", options.get(TestOptions.SECRET_KEY));
        assertFalse(options.isSet(TestOptions.ATTR_TIMEOUT));
    }

    @Test
    void badValueNamesKeyValueAndForm() {
        OptionException e = assertThrows(OptionException.class,
                () -> loader.commandLine(List.of("buffer_size=12XB")));
        assertTrue(e.getMessage().startsWith("bad value for option buffer_size: '12XB'"), e.getMessage());
        assertTrue(e.getMessage().contains("(expected a size such as 4096, 512KB, 1MiB or 5GB)"), e.getMessage());
        assertEquals(1, e.getMessage().split("expected", -1).length - 1, "one 'expected': " + e.getMessage());

        e = assertThrows(OptionException.class, () -> loader.environment(Map.of("STRATA_ATTR_TIMEOUT", "ten")));
        assertTrue(e.getMessage().startsWith("bad value for option attr_timeout: 'ten'"), e.getMessage());
        assertTrue(e.getMessage().contains("expected a duration such as 1.5 (seconds), 500ms"), e.getMessage());
    }

    @Test
    void valueFailingItsCheckNamesWhatIsExpected() {
        OptionException e = assertThrows(OptionException.class,
                () -> loader.commandLine(List.of("local_cache_page_size=3MiB")));
        assertEquals("bad value for option local_cache_page_size: '3MiB' (expected a power of two such as 1MiB)",
                e.getMessage());
    }

    @Test
    void badValueInAFileIsRejectedToo() throws IOException {
        Path file = Files.writeString(dir.resolve("p"), "max_uploads=many\n");
        OptionException e = assertThrows(OptionException.class, () -> loader.file(file));
        assertTrue(e.getMessage().contains("max_uploads: 'many'"), e.getMessage());
    }

    @Test
    void unknownKeySuggestsTheClosestOne() {
        OptionException e = assertThrows(OptionException.class, () -> loader.commandLine(List.of("attr_timeot=1")));
        assertTrue(e.getMessage().contains("did you mean 'attr_timeout'?"), e.getMessage());
    }

    @Test
    void missingFileIsAnErrorNamingThePath() {
        Path missing = dir.resolve("missing.properties");
        OptionException e = assertThrows(OptionException.class, () -> loader.file(missing));
        assertEquals("configuration file not found: " + missing, e.getMessage());
    }

    @Test
    void integersAreDecimalEvenWithLeadingZeros() {
        assertEquals(10, loaderFor().commandLine(List.of("max_uploads=010")).build().get(TestOptions.MAX_UPLOADS));
        assertEquals(8, loaderFor().commandLine(List.of("max_uploads=08")).build().get(TestOptions.MAX_UPLOADS));
    }

    @Test
    void trailingSpacesInAPropertiesFileAreIgnored() throws IOException {
        // Properties keeps trailing blanks in values; every type must read past them.
        Path file = Files.writeString(dir.resolve("p"), "max_uploads = 3 \numask = 027\t\nbuffer_size = 1GB \n");
        Options options = loader.file(file).build();
        assertEquals(3, options.get(TestOptions.MAX_UPLOADS));
        assertEquals(027, options.get(TestOptions.UMASK));
        assertEquals(DataSize.ofGiB(1), options.get(TestOptions.BUFFER_SIZE));
    }

    @Test
    void octalOptionsReadAndPrintOctal() {
        Options options = loader.commandLine(List.of("umask=027")).build();
        assertEquals(027, options.get(TestOptions.UMASK));
        assertEquals("umask=027 (-o)\n", options.describe());
    }

    @Test
    void secretsAreMaskedInDescriptionsButHandedOnInText() {
        Options options = loader.commandLine(List.of("s3.secret_key=hunter2,max_uploads=7")).build();
        assertEquals("hunter2", options.get(TestOptions.SECRET_KEY));
        assertFalse(options.describe().contains("hunter2"), options.describe());
        assertTrue(options.describe().contains("s3.secret_key=**** (-o)"), options.describe());
        assertEquals(Map.of("s3.secret_key", "hunter2", "max_uploads", "7"), options.toText());
    }

    @Test
    void secretsAreMaskedInErrors() {
        OptionException check = assertThrows(OptionException.class,
                () -> loader.commandLine(List.of("secret_pin=123")));
        assertFalse(check.getMessage().contains("123"), check.getMessage());
        assertTrue(check.getMessage().contains("secret_pin: '****'"), check.getMessage());

        OptionException parse = assertThrows(OptionException.class,
                () -> loader.environment(Map.of("STRATA_SECRET_PIN", "hunter2")));
        assertFalse(parse.getMessage().contains("hunter2"), parse.getMessage());
        assertTrue(parse.getMessage().contains("expected an integer"), parse.getMessage());
    }

    @Test
    void optionsSetInCodeAreDescribedAsSuch() {
        Options options = Options.defaults().with(TestOptions.MAX_UPLOADS, 9);
        assertEquals(9, options.get(TestOptions.MAX_UPLOADS));
        assertEquals("max_uploads=9 (code)\n", options.describe());
        assertFalse(Options.defaults().isSet(TestOptions.MAX_UPLOADS));
    }

    private static OptionsLoader loaderFor() {
        return new OptionsLoader(TestOptions.registry());
    }

    /** {@code describe()} lines in the given key order, so the test does not depend on insertion order. */
    private static String sortedLike(String described, String... keys) {
        StringBuilder out = new StringBuilder();
        List<String> lines = described.lines().toList();
        for (String key : keys) {
            lines.stream().filter(line -> line.startsWith(key + "=")).forEach(line -> out.append(line).append('\n'));
        }
        assertEquals(keys.length, lines.size(), described);
        return out.toString();
    }
}
