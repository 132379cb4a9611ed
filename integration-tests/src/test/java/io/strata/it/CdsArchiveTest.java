package io.strata.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The class-data sharing archive {@code bin/strata} makes at the end of a foreground mount: one
 * from a short session is kept as thin (mounts use it) and the next foreground mount makes another;
 * one from a long enough session stays. On JDK 25 and later the archive is an AOT cache. The
 * archives go to a temporary STRATA_CDS_DIR.
 */
class CdsArchiveTest {
    @TempDir
    Path base;
    private Path source;
    private Path mountPoint;
    private Path cacheDir;
    private final Map<String, String> environment = new HashMap<>();

    @BeforeEach
    void directories() throws IOException {
        source = Files.createDirectories(base.resolve("source"));
        mountPoint = Files.createDirectories(base.resolve("mnt"));
        cacheDir = base.resolve("cds");
        environment.put("STRATA_STATE_DIR", Files.createDirectories(base.resolve("state")).toString());
        environment.put("STRATA_CDS_DIR", cacheDir.toString());
    }

    @AfterEach
    void cleanUp() {
        Launcher.cleanUp(base, environment, mountPoint);
    }

    /** A foreground mount that is unmounted as soon as it is live, as a user's quick check would be. */
    private void mountAndUnmount() {
        String launcher = Launcher.path().toString();
        String script = String.format("'%1$s' mount '%2$s' '%3$s' --foreground >mount.log 2>&1 & pid=$!;"
                + " i=0; until mountpoint -q '%3$s'; do i=$((i+1)); [ $i -lt 600 ] || exit 9; sleep 0.1; done;"
                + " '%1$s' umount '%3$s' && wait $pid", launcher, source, mountPoint);
        Shell.run(base, environment, Launcher.COMMAND_TIMEOUT, List.of("bash", "-c", script)).assertOk();
    }

    private List<String> archiveFiles() throws IOException {
        try (Stream<Path> files = Files.list(cacheDir)) {
            return files.map(p -> p.getFileName().toString().replaceAll("strata-[0-9]+-[0-9]+", "strata-KEY")).sorted().toList();
        }
    }

    @Test
    void aShortSessionLeavesAThinArchiveThatTheNextLongEnoughSessionReplaces() throws IOException {
        mountAndUnmount();
        assertEquals(List.of("strata-KEY.jsa", "strata-KEY.jsa.thin"), archiveFiles(), "no lock left: a later mount may make one");

        environment.put("STRATA_CDS_MIN_SESSION", "0"); // every session counts as long enough
        mountAndUnmount();
        assertEquals(List.of("strata-KEY.jsa", "strata-KEY.jsa.lock"), archiveFiles());
    }

    @Test
    void onJdk25AndLaterTheArchiveIsAnAotCacheThatLaterMountsUseQuietly() throws IOException {
        Optional<Jdk> jdk = newestJdk();
        assumeTrue(jdk.isPresent() && jdk.get().feature() >= 25, "no JDK 25 or later in /usr/lib/jvm");
        environment.put("JAVA_HOME", jdk.get().home().toString());
        environment.put("STRATA_CDS_MIN_SESSION", "0");
        String aot = "strata-KEY-jdk" + jdk.get().feature() + ".aot";

        mountAndUnmount();
        assertEquals(List.of(aot, aot + ".lock"), archiveFiles());

        mountAndUnmount();
        String log = Files.readString(base.resolve("mount.log"));
        assertFalse(log.contains("WARNING"), "the mount from the cache warned:\n" + log);
        assertFalse(log.contains("AOTCache"), "the mount from the cache made another:\n" + log);
    }

    /**
     * {@code strata train} records a new archive, in place of the one a foreground mount made, from a
     * session that writes, reads and lists; a later mount's writes then load their classes from it.
     * What it wrote in the source is gone, and no mount or temporary directory is left.
     */
    @Test
    void trainRecordsAnArchiveThatHoldsTheWritePathAndLeavesTheSourceAsItWas() throws IOException {
        environment.put("STRATA_CDS_MIN_SESSION", "0");
        environment.put("TMPDIR", Files.createDirectories(base.resolve("tmp")).toString());
        Files.writeString(source.resolve("kept.txt"), "kept");
        mountAndUnmount(); // an archive of a session that wrote nothing
        Path archive;
        try (Stream<Path> files = Files.list(cacheDir)) {
            archive = files.filter(f -> f.toString().endsWith(".jsa")).findFirst().orElseThrow();
        }
        Object recorded = Files.readAttributes(archive, BasicFileAttributes.class).fileKey();

        Launcher.run(base, environment, "train", source.toString()).assertOk();

        assertEquals(List.of("strata-KEY.jsa", "strata-KEY.jsa.lock"), archiveFiles());
        assertFalse(recorded.equals(Files.readAttributes(archive, BasicFileAttributes.class).fileKey()),
                "the archive was not recorded again");
        try (Stream<Path> files = Files.list(source)) {
            assertEquals(List.of("kept.txt"), files.map(f -> f.getFileName().toString()).toList());
        }
        try (Stream<Path> files = Files.list(base.resolve("tmp"))) {
            assertEquals(List.of(), files.toList(), "train left its temporary directory");
        }

        environment.put("STRATA_JAVA_OPTS", "-Xlog:class+load=info:file=" + base.resolve("classes-%p.log"));
        String launcher = Launcher.path().toString();
        String script = String.format("'%1$s' mount '%2$s' '%3$s' >mount.log 2>&1 && echo written > '%3$s/new.txt'"
                + " && '%1$s' umount '%3$s'", launcher, source, mountPoint);
        Shell.run(base, environment, Launcher.COMMAND_TIMEOUT, List.of("bash", "-c", script)).assertOk();
        String written = classLogs().stream()
                .flatMap(classLog -> loadOf(classLog, "io.strata.client.WrittenPages$Page").stream())
                .findFirst().orElseThrow(() -> new AssertionError("no mount loaded io.strata.client.WrittenPages$Page"));
        assertTrue(written.contains("source: shared objects file"), "loaded from the jar, not the archive: " + written);
    }

    /**
     * The command line's parser comes from the archive too: picocli ships Java 5 class files, which
     * an archive skips, so the build rewrites them as Java 8 ones (cli/src/build/java).
     */
    @Test
    void theCommandLineParserIsLoadedFromTheArchive() throws IOException {
        environment.put("STRATA_CDS_MIN_SESSION", "0");
        mountAndUnmount();
        environment.put("STRATA_JAVA_OPTS", "-Xlog:class+load=info:file=" + base.resolve("classes-%p.log"));
        mountAndUnmount();

        List<String> mountLog = classLogs().stream()
                // the mount's JVM is the one that opened a file system (strata umount's loads MountCommand too)
                .filter(classLog -> loadOf(classLog, "io.strata.client.StrataFileSystem").isPresent())
                .findFirst().orElseThrow(() -> new AssertionError("no class log of the mount's JVM in " + base));
        String parser = loadOf(mountLog, "picocli.CommandLine")
                .orElseThrow(() -> new AssertionError("the mount did not load picocli.CommandLine"));
        assertTrue(parser.contains("source: shared objects file"), "loaded from the jar, not the archive: " + parser);
    }

    /** The class-load logs (STRATA_JAVA_OPTS' -Xlog:class+load) the JVMs wrote into the test's directory. */
    private List<List<String>> classLogs() throws IOException {
        try (Stream<Path> files = Files.list(base)) {
            return files.filter(f -> f.getFileName().toString().startsWith("classes-")).map(CdsArchiveTest::lines).toList();
        }
    }

    /** The line of a class log that shows the class loaded, if it was. */
    private static Optional<String> loadOf(List<String> classLog, String className) {
        return classLog.stream().filter(line -> line.contains(" " + className + " ")).findFirst();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Jdk(Path home, int feature) {}

    /** The newest JDK installed under /usr/lib/jvm, by the feature version its release file gives. */
    private static Optional<Jdk> newestJdk() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        Pattern version = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin/java")) && Files.isRegularFile(home.resolve("release")))
                    .flatMap(home -> {
                        try {
                            Matcher m = version.matcher(Files.readString(home.resolve("release")));
                            return m.find() ? Stream.of(new Jdk(home, Integer.parseInt(m.group(1)))) : Stream.empty();
                        } catch (IOException e) {
                            return Stream.empty();
                        }
                    })
                    .max(Comparator.comparingInt(Jdk::feature));
        }
    }
}
