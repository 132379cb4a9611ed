package io.strata.fuse.kernel;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This JVM's own compiler threads, confined and given back; what each thread may use is read from
 * the kernel's account of it ({@link ThreadCpus}), not through the class's calls.
 */
class CompilerThreadsTest {
    @Test
    void compilerThreadsAreKeptOffTheCallersLowestCpuUntilClosed() throws IOException {
        BitSet mine = ThreadCpus.assumeTwoOrMore("thread-self");
        Map<Integer, BitSet> before = ThreadCpus.ofCompilers();

        try (CompilerThreads confined = CompilerThreads.confine().orElseThrow()) {
            assertEquals(mine.nextSetBit(0), confined.freeCpu());
            assertFalse(confined.threads().isEmpty());
            // A thread HotSpot added since is a compiler thread's child, and kept off the CPU too
            ThreadCpus.ofCompilers().forEach((tid, cpus) -> {
                assertFalse(cpus.get(confined.freeCpu()), "compiler thread " + tid + " on " + cpus);
                assertFalse(cpus.isEmpty(), "compiler thread " + tid + " keeps a CPU");
            });
        }
        ThreadCpus.assertCompilersHave(before);
    }

    @Test
    void theCompilersStayConfinedUntilTheLastHolderCloses() throws IOException {
        BitSet mine = ThreadCpus.assumeTwoOrMore("thread-self");
        int free = mine.nextSetBit(0);
        Map<Integer, BitSet> before = ThreadCpus.ofCompilers();

        CompilerThreads first = CompilerThreads.confine().orElseThrow();
        try (CompilerThreads second = CompilerThreads.confine().orElseThrow()) {
            assertEquals(first.threads(), second.threads(), "one confinement, two holders");
            first.close();
            first.close(); // a second close of one holder lets nothing more go
            ThreadCpus.ofCompilers().forEach((tid, cpus) ->
                    assertFalse(cpus.get(free), "compiler thread " + tid + " on " + cpus + " while held"));
        }
        ThreadCpus.assertCompilersHave(before);
    }

    @Test
    void otherThreadsKeepTheirCpus() throws IOException {
        BitSet caller = ThreadCpus.assumeTwoOrMore("thread-self");
        BitSet process = ThreadCpus.of("self");

        try (CompilerThreads confined = CompilerThreads.confine().orElseThrow()) {
            assertFalse(confined.threads().contains(tid()), "the caller is no compiler thread");
            assertEquals(caller, ThreadCpus.of("thread-self"));
            assertEquals(process, ThreadCpus.of("self"), "the main thread");
        }
    }

    @Test
    void aCallerThatMayUseOneCpuConfinesNothing() throws Exception {
        BitSet mine = ThreadCpus.assumeTwoOrMore("thread-self");
        Map<Integer, BitSet> before = ThreadCpus.ofCompilers();
        BitSet one = new BitSet();
        one.set(mine.nextSetBit(0));
        AtomicReference<Optional<CompilerThreads>> result = new AtomicReference<>();
        Thread onOneCpu = new Thread(() -> {
            if (LibC.get().sched_setaffinity(0, Long.BYTES, one.toLongArray()) != 0) {
                throw new IllegalStateException("cannot pin the test thread (errno " + LibC.errno() + ")");
            }
            result.set(CompilerThreads.confine());
        });
        onOneCpu.start();
        onOneCpu.join();

        assertFalse(result.get().isPresent());
        ThreadCpus.assertCompilersHave(before);
    }

    @Test
    void theCompilerThreadsAreFoundByTheirNames() throws IOException {
        List<Integer> found = CompilerThreads.compilerThreads();
        assertFalse(found.isEmpty(), "HotSpot runs C1 and C2 compiler threads");
        for (int tid : found) {
            String name = Files.readString(Path.of("/proc/self/task/" + tid + "/comm")).strip();
            assertTrue(name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre"), name);
        }
    }

    /** The calling thread's id, as /proc names it. */
    private static int tid() throws IOException {
        return Integer.parseInt(Path.of("/proc/thread-self").toRealPath().getFileName().toString());
    }
}
