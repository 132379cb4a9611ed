package io.strata.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mount daemon killed with SIGKILL in the middle of a read: the next mount of the same source
 * finds the pages the dead one cached (its index rebuilt from the cache directory) and serves them
 * as hits, and every byte read afterwards is right, including the file the daemon was reading.
 * A file's short last page settles to disk behind its read (TieredPageStore), so the test waits
 * for every page to be on disk before it kills; one not yet settled would be fetched again.
 * Also {@code strata warmup} and {@code --check} against the live daemon.
 */
class CacheRestartTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path base;
    private Path source;
    private Path mountPoint;
    private Path stateDir;

    @BeforeEach
    void directories() throws IOException {
        source = Files.createDirectories(base.resolve("source"));
        mountPoint = Files.createDirectories(base.resolve("mnt"));
        stateDir = Files.createDirectories(base.resolve("state"));
    }

    @AfterEach
    void cleanUp() {
        Launcher.cleanUp(base, environment(), mountPoint);
    }

    private Shell.Result strata(String... args) {
        return Launcher.run(base, environment(), args);
    }

    private Map<String, String> environment() {
        return Map.of("STRATA_STATE_DIR", stateDir.toString());
    }

    private void mount() {
        strata("mount", source.toString(), mountPoint.toString(), "-o", "direct_io,local_data_cache_size=2GiB")
                .assertOk();
    }

    private List<ProcessHandle> daemons() {
        return Launcher.daemons(mountPoint);
    }

    /** {cached bytes, size} as the mount reports them. */
    private static long[] cached(Path file) throws IOException {
        UserDefinedFileAttributeView view = Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
        ByteBuffer value = ByteBuffer.allocate(64);
        view.read("strata.cached", value);
        String[] parts = new String(value.array(), 0, value.position(), StandardCharsets.US_ASCII).split(" ");
        return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    }

    /** How many of the file's pages the disk tier holds, as {@code user.strata.info} reports them. */
    private static long pagesOnDisk(Path file) throws IOException {
        UserDefinedFileAttributeView view = Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
        ByteBuffer value = ByteBuffer.allocate(view.size("strata.info"));
        view.read("strata.info", value);
        return new ObjectMapper().readTree(value.array()).path("cached_pages").path("disk").asLong();
    }

    @Test
    void afterKillDashNineMidReadTheNextMountReusesTheCache() throws Exception {
        byte[] warm = Bytes.random(21, 32 * MIB + 5);
        Files.write(source.resolve("warm.bin"), warm);
        Files.write(source.resolve("cold.bin"), Bytes.random(22, 512 * MIB));
        mount();

        assertArrayEquals(warm, Files.readAllBytes(mountPoint.resolve("warm.bin")));
        Poll.until("warm.bin fully cached", (long) warm.length, Duration.ofSeconds(30),
                () -> cached(mountPoint.resolve("warm.bin"))[0]);
        Poll.until("every page of warm.bin on disk", 33L, Duration.ofSeconds(30),
                () -> pagesOnDisk(mountPoint.resolve("warm.bin")));

        Process reader = new ProcessBuilder("dd", "if=" + mountPoint.resolve("cold.bin"), "of=/dev/null", "bs=128k")
                .redirectErrorStream(true).start();
        Poll.until("the reader under way", true, Duration.ofSeconds(30),
                () -> cached(mountPoint.resolve("cold.bin"))[0] > 8 * MIB);
        List<ProcessHandle> daemons = daemons();
        assertEquals(1, daemons.size(), "daemons: " + daemons);
        daemons.get(0).destroyForcibly(); // SIGKILL, mid-read
        daemons.get(0).onExit().join();
        reader.waitFor();
        assertTrue(reader.exitValue() != 0, "the read was cut short by the kill");

        mount(); // clears the stale mount first
        long[] restored = cached(mountPoint.resolve("warm.bin"));
        assertEquals(warm.length, restored[0], "every page of warm.bin is found again after the restart");
        assertTrue(cached(mountPoint.resolve("cold.bin"))[0] > 0, "pages of the file being read were kept");
        assertArrayEquals(warm, Files.readAllBytes(mountPoint.resolve("warm.bin")));
        assertEquals(Bytes.sha256(Bytes.random(22, 512 * MIB)), Bytes.sha256(mountPoint.resolve("cold.bin")));
    }

    @Test
    void warmupLoadsFilesAndCheckReportsThem() throws Exception {
        Files.createDirectories(source.resolve("dir/sub"));
        Files.write(source.resolve("dir/a.bin"), Bytes.random(31, 3 * MIB));
        Files.write(source.resolve("dir/sub/b.bin"), Bytes.random(32, MIB + 7));
        // auto_cache: warmup reads around it; over a local source the page cache is opt-in
        strata("mount", source.toString(), mountPoint.toString(), "-o", "local_data_cache_size=512MiB").assertOk();

        Shell.Result before = strata("warmup", "--check", mountPoint.resolve("dir").toString()).assertOk();
        assertTrue(before.out().contains("total: 0 B of 4.0 MiB cached (0.0%) in 2 files"), before.describe());

        Shell.Result warmup = strata("warmup", "-j", "2", mountPoint.resolve("dir").toString()).assertOk();
        assertTrue(warmup.out().contains("warmed " + mountPoint.resolve("dir/a.bin") + " (3.0 MiB)"), warmup.describe());
        assertTrue(warmup.out().contains("warmed 2 files, 4.0 MiB"), warmup.describe());

        Poll.until("both files cached", true, Duration.ofSeconds(30), () ->
                strata("warmup", "--check", mountPoint.resolve("dir").toString()).out()
                        .contains("total: 4.0 MiB of 4.0 MiB cached (100.0%) in 2 files"));
    }

    @Test
    void warmupRefusesPathsOutsideAMount() {
        Shell.Result result = strata("warmup", source.toString());
        assertEquals(2, result.exit(), result.describe());
        assertTrue(result.err().contains("is not inside a Strata mount"), result.describe());
    }
}
