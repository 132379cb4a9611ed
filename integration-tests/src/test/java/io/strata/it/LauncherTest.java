package io.strata.it;

import io.strata.cli.ExitCodes;
import io.strata.cli.ProcessState;
import io.strata.cli.stats.StatsSample;
import io.strata.fuse.MountPoints;
import io.strata.fuse.kernel.KernelSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code bin/strata} as a user runs it: a real process that starts a mount daemon and returns,
 * {@code umount}, and one clear line with a non-zero exit for bad input. The state directory
 * (pid files, logs, default metastores) is a temporary directory, set with STRATA_STATE_DIR.
 *
 * <p>Which launcher runs: see {@link Launcher}.
 */
class LauncherTest {

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

    /** Whatever a test left behind: a live or stale mount, a daemon. */
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

    private List<ProcessHandle> daemons() {
        return Launcher.daemons(mountPoint);
    }

    private static List<String> lines(String text) {
        return text.lines().filter(line -> !line.isBlank()).toList();
    }

    /** Bad input: a non-zero exit, nothing mounted, and exactly one line on stderr, returned. */
    private String refusal(Shell.Result result) {
        assertNotEquals(0, result.exit(), result.describe());
        assertEquals(ExitCodes.BAD_INPUT, result.exit(), result.describe());
        assertEquals(1, lines(result.err()).size(), "one line expected:\n" + result.describe());
        assertFalse(MountPoints.isMounted(mountPoint), "mounted despite the error");
        assertEquals(List.of(), daemons(), "a daemon was left running");
        return lines(result.err()).get(0);
    }

    @Test
    void mountReturnsZeroOnceTheMountIsLive() throws IOException {
        Shell.Result mount = strata("mount", source.toString(), mountPoint.toString());
        assertEquals(0, mount.exit(), mount.describe());
        assertTrue(MountPoints.isMounted(mountPoint), "not mounted when mount returned");
        assertEquals("fuse.strata", MountPoints.find(mountPoint).orElseThrow().fsType());

        Files.writeString(mountPoint.resolve("hello.txt"), "through the daemon\n");
        assertEquals("through the daemon\n", Files.readString(source.resolve("hello.txt")));
        assertEquals(1, daemons().size(), "daemons: " + daemons());
    }

    /**
     * The daemon that {@code strata mount} starts is the program the user started, launched the same
     * way: started from the jar with {@code -cp}, it lost the manifest's {@code Add-Opens}, so the
     * kernel transport could not reach page files' descriptors and copied every read that a
     * foreground mount splices.
     */
    @Test
    void aBackgroundDaemonSplicesCachedPagesAsAForegroundMountDoes() throws Exception {
        assumeTrue(KernelSession.largestSplicedRead() > 0, "reads cannot be spliced here");
        byte[] data = Bytes.random(38, 4 << 20);
        Files.write(source.resolve("data.bin"), data);
        strata("mount", source.toString(), mountPoint.toString(),
                "-o", "fuse=kernel,local_data_cache_size=64MiB,local_cache_memory_size=0").assertOk();
        Path file = mountPoint.resolve("data.bin");
        assertArrayEquals(data, Files.readAllBytes(file)); // fetched, and stored in the disk tier behind the read

        // O_DIRECT reads reach the daemon whatever the kernel caches; once the fills are in they are spliced
        Poll.until("reads spliced", true, Duration.ofSeconds(30), () -> {
            Shell.run(null, "dd", "if=" + file, "of=/dev/null", "bs=256k", "iflag=direct").assertOk();
            return splicedBytes() > 0;
        });
    }

    private double splicedBytes() throws IOException {
        String metric = "strata_fuse_read_spliced_bytes_total";
        Double spliced = StatsSample.parse(Files.readString(mountPoint.resolve(".stats")), 0).values().get(metric);
        if (spliced == null) {
            throw new AssertionError("no " + metric + " in .stats");
        }
        return spliced;
    }

    @Test
    void umountUnmountsAndTheDaemonExits() throws IOException {
        strata("mount", source.toString(), mountPoint.toString()).assertOk();
        Files.writeString(mountPoint.resolve("kept.txt"), "kept");
        List<ProcessHandle> daemons = daemons();
        assertEquals(1, daemons.size(), "daemons: " + daemons);

        Shell.Result umount = strata("umount", mountPoint.toString());
        assertEquals(0, umount.exit(), umount.describe());
        assertFalse(MountPoints.isMounted(mountPoint));
        assertEquals(List.of(), MountedVolume.names(mountPoint), "mountpoint not empty after umount");
        // ended: a zombie counts, as init here reaps orphans only every second or two
        assertTrue(ProcessState.ended(daemons.get(0)), "daemon still running after umount returned");
        assertEquals("kept", Files.readString(source.resolve("kept.txt")));
    }

    @Test
    void sigtermFlushesUnmountsAndEndsTheDaemon() throws IOException {
        strata("mount", source.toString(), mountPoint.toString()).assertOk();
        List<ProcessHandle> daemons = daemons();
        assertEquals(1, daemons.size(), "daemons: " + daemons);
        Files.writeString(mountPoint.resolve("kept.txt"), "kept");

        Shell.run(null, "kill", "-TERM", Long.toString(daemons.get(0).pid())).assertOk();

        Poll.until("daemon ended", true, Duration.ofSeconds(30), () -> ProcessState.ended(daemons.get(0)));
        assertFalse(MountPoints.isMounted(mountPoint));
        assertEquals("kept", Files.readString(source.resolve("kept.txt")));
    }

    @Test
    void unknownOptionIsRefusedNamingTheClosestKey() {
        String line = refusal(strata("mount", source.toString(), mountPoint.toString(), "-o", "atr_timeout=1"));
        assertTrue(line.contains("atr_timeout") && line.contains("attr_timeout"), line);
    }

    @Test
    void badOptionValueIsRefusedNamingKeyValueAndForm() {
        String line = refusal(strata("mount", source.toString(), mountPoint.toString(), "-o", "attr_timeout=abc"));
        assertTrue(line.contains("attr_timeout"), line);
        assertTrue(line.contains("abc"), line);
        assertTrue(line.contains("duration"), "the expected form: " + line);
    }

    @Test
    void missingSourceDirectoryIsRefused() {
        Path missing = base.resolve("no-such-source");
        String line = refusal(strata("mount", missing.toString(), mountPoint.toString()));
        assertTrue(line.contains(missing.toString()) && line.contains("does not exist"), line);
    }

    @Test
    void mountPointThatIsNotADirectoryIsRefused() throws IOException {
        Files.delete(mountPoint);
        Files.writeString(mountPoint, "a file");
        String line = refusal(strata("mount", source.toString(), mountPoint.toString()));
        assertTrue(line.contains(mountPoint.toString()) && line.contains("not a directory"), line);
    }

    @Test
    void staleMountIsClearedByTheNextMount() throws IOException, InterruptedException {
        strata("mount", source.toString(), mountPoint.toString()).assertOk();
        ProcessHandle daemon = onlyDaemon();
        daemon.destroyForcibly(); // kill -9: no unmount
        daemon.onExit().join();

        Shell.Result stat = Shell.run(base, "stat", mountPoint.toString());
        assertNotEquals(0, stat.exit(), stat.describe());
        assertTrue(stat.err().contains("Transport endpoint is not connected"), stat.describe());

        Shell.Result again = strata("mount", source.toString(), mountPoint.toString());
        assertEquals(0, again.exit(), again.describe());
        assertFalse(MountPoints.isStale(mountPoint));
        Files.writeString(mountPoint.resolve("after.txt"), "alive again");
        assertEquals("alive again", Files.readString(source.resolve("after.txt")));
        assertNotEquals(daemon.pid(), onlyDaemon().pid());
    }

    private ProcessHandle onlyDaemon() {
        List<ProcessHandle> daemons = daemons();
        assertEquals(1, daemons.size(), "daemons: " + daemons);
        Optional<ProcessHandle> daemon = daemons.stream().findFirst();
        return daemon.orElseThrow();
    }
}
