package io.strata.core.concurrent;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonThreadsTest {
    @Test
    void aNumberedPoolsThreadsAreDaemonsNamedInTheOrderTheyStart() {
        DaemonThreads threads = DaemonThreads.numbered("strata-test");

        List<Thread> made = IntStream.range(0, 3).mapToObj(i -> threads.newThread(() -> {})).toList();

        assertEquals(List.of("strata-test-1", "strata-test-2", "strata-test-3"),
                made.stream().map(Thread::getName).toList());
        assertTrue(made.stream().allMatch(Thread::isDaemon));
    }

    @Test
    void aNamedPoolsThreadTakesTheNameAsItIs() {
        Thread thread = DaemonThreads.named("strata-test-watchdog").newThread(() -> {});

        assertEquals("strata-test-watchdog", thread.getName());
        assertTrue(thread.isDaemon());
    }

    @Test
    void anExecutorsTasksRunOnTheFactorysThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2, DaemonThreads.numbered("strata-test-pool"));
        try {
            Thread ran = pool.submit(Thread::currentThread).get();

            assertTrue(ran.getName().startsWith("strata-test-pool-"), ran.getName());
            assertTrue(ran.isDaemon());
        } finally {
            pool.shutdownNow();
        }
    }
}
