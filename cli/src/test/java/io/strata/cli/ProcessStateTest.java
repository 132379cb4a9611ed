package io.strata.cli;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessStateTest {
    @Test
    void aZombieHasEndedThoughItsHandleSaysItIsAlive() throws Exception {
        // sh reports its background child's pid, then becomes a sleep that never reaps that child
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0 & echo $!; exec sleep 30").start();
        try {
            long pid;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(),
                    StandardCharsets.UTF_8))) {
                pid = Long.parseLong(out.readLine().strip());
            }
            ProcessHandle child = ProcessHandle.of(pid).orElseThrow();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!ProcessState.ended(child) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(ProcessState.ended(child), "a zombie has ended");
            assertTrue(child.isAlive(), "and its handle still says alive: why ended looks at /proc");
            assertFalse(ProcessState.ended(parent.toHandle()), "the sleep that never reaps it runs");
        } finally {
            parent.destroy();
        }
    }
}
