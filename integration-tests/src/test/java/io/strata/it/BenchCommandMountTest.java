package io.strata.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.cli.ExitCodes;
import io.strata.cli.StrataCommand;
import io.strata.core.ufs.s3.S3TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code strata bench} run in this JVM against a Strata mount of an S3 bucket prefix (S3Proxy in
 * this JVM, or STRATA_TEST_S3_ENDPOINT): every row is reported with the files and bytes of every
 * thread, the mount is named as Strata's over S3, and nothing is left in the mount or the bucket.
 * Small sizes, and the kernel caches left alone: the figures are not the point here.
 */
class BenchCommandMountTest {
    private static final int MIB = 1 << 20;

    @TempDir
    static Path base;
    static S3TestServer server;
    static URI volume;
    static MountedVolume mounted;

    record Result(int exitCode, String out, String err) {}

    @BeforeAll
    static void mount() throws IOException {
        server = S3TestServer.shared();
        volume = server.newVolume("bench");
        mounted = MountedVolume.overS3(base, volume, server.optionText(),
                "s3.staging_dir=" + base.resolve("staging")).mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (mounted != null) {
            mounted.close();
        }
    }

    private static Result strata(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = StrataCommand.commandLine(Map.of()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    private static JsonNode benchJson(Path dir) throws IOException {
        Result result = strata("bench", dir.toString(), "--json", "-p", "2", "--big-file-size", "3MiB",
                "--small-file-size", "100KiB", "--small-file-count", "4", "--no-drop-caches");
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        return new ObjectMapper().readTree(result.out());
    }

    @Test
    void everyRowCountsTheFilesAndBytesOfEveryThread() throws IOException {
        JsonNode rows = benchJson(mounted.dir("rows")).get("results");
        assertEquals(5, rows.size(), rows::toString);
        long[][] expected = {{2, 2L * 3 * MIB}, {2, 2L * 3 * MIB}, {8, 8L * 100 * 1024}, {8, 8L * 100 * 1024}, {8, 0}};
        List<String> items = List.of("write_big_file", "read_big_file", "write_small_file", "read_small_file",
                "stat_file");
        for (int i = 0; i < expected.length; i++) {
            JsonNode row = rows.get(i);
            assertEquals(items.get(i), row.get("item").asText(), row::toString);
            assertEquals(expected[i][0], row.get("files").asLong(), row::toString);
            assertEquals(expected[i][1], row.get("bytes").asLong(), row::toString);
            assertTrue(row.get("rate").asDouble() > 0, row::toString);
        }
    }

    @Test
    void theMountIsNamedAsStrataOverS3() throws IOException {
        JsonNode mount = benchJson(mounted.dir("kind")).get("mount");
        assertEquals(mounted.mountPoint().toRealPath().toString(), mount.get("mountPoint").asText(), mount::toString);
        assertEquals("fuse.strata", mount.get("type").asText(), mount::toString);
        assertEquals("s3", mount.get("strataKind").asText(), mount::toString);
        assertEquals("strata:" + volume, mount.get("source").asText(), mount::toString);
    }

    @Test
    void theTableNamesTheMount() throws IOException {
        Result result = strata("bench", mounted.dir("table").toString(), "--big-file-size", "1MiB",
                "--small-file-count", "2", "--no-drop-caches");
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertTrue(result.out().contains("on a Strata mount of " + volume + " (S3) at "), result::toString);
        assertTrue(result.out().contains("| Stat file "), result::toString);
    }

    @Test
    void nothingIsLeftInTheMountOrTheBucket() throws IOException {
        Path dir = mounted.dir("clean");
        benchJson(dir);
        assertEquals(List.of(), MountedVolume.names(dir));
        Poll.until("bench objects left in the bucket", List.of(), Duration.ofSeconds(10),
                () -> server.keys(volume).stream().filter(k -> k.contains("strata-bench-")).toList());
    }

    @Test
    void aReadOnlyMountIsRefused(@TempDir Path readOnlyBase) throws IOException {
        try (MountedVolume readOnly = MountedVolume.under(readOnlyBase, "ro").mount()) {
            Result result = strata("bench", readOnly.mountPoint().toString(), "--no-drop-caches");
            assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
            assertEquals("strata: " + readOnly.mountPoint() + " is not writable (read-only file system or"
                    + " permissions); give a directory you can write in\n", result.err());
        }
    }
}
