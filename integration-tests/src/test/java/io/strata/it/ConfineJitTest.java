package io.strata.it;

import io.strata.fuse.kernel.ThreadCpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code confine_jit}: once a mount is up, this JVM's JIT compiler threads are kept off the lowest
 * CPU the process may use, until the mount is closed; {@code confine_jit=false} leaves them.
 */
class ConfineJitTest {
    private static final Duration WARM_UP = Duration.ofSeconds(10);

    @TempDir
    Path base;

    @Test
    void aMountKeepsTheCompilersOffOneCpuUntilItIsClosed() throws IOException {
        BitSet process = ThreadCpus.assumeTwoOrMore("self");
        int lowest = process.nextSetBit(0);
        Map<Integer, BitSet> before = ThreadCpus.ofCompilers();

        try (MountedVolume volume = MountedVolume.under(base).mount()) {
            Files.writeString(volume.path("f"), "served meanwhile");
            Poll.until("every compiler thread off CPU " + lowest, true, WARM_UP,
                    () -> ThreadCpus.ofCompilers().values().stream().noneMatch(cpus -> cpus.get(lowest)));
            assertEquals(process, ThreadCpus.of("self"), "the main thread keeps its CPUs");
        }
        ThreadCpus.assertCompilersHave(before);
    }

    @Test
    void confineJitFalseLeavesTheCompilersWhereTheyRun() throws IOException {
        ThreadCpus.assumeTwoOrMore("self");
        Map<Integer, BitSet> before = ThreadCpus.ofCompilers();

        try (MountedVolume volume = MountedVolume.under(base, "confine_jit=false").mount()) {
            Files.writeString(volume.path("f"), "x");
            Poll.until("the mount's warm-up ended", false, WARM_UP, ConfineJitTest::warmingUp);
            ThreadCpus.assertCompilersHave(before);
        }
    }

    private static boolean warmingUp() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("strata-warmup"));
    }
}
