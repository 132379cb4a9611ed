package io.strata.it;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Waits for something the kernel does asynchronously (FUSE RELEASE after close(2), the expiry of
 * its attribute cache, a killed daemon's exit) by polling with a deadline.
 */
final class Poll {
    private static final long INTERVAL_MILLIS = 20;

    private Poll() {}

    /** Polls {@code actual} until it equals {@code expected}; fails with the last value after {@code timeout}. */
    static <T> void until(String what, T expected, Duration timeout, Callable<T> actual) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last;
        while (true) {
            try {
                last = actual.call();
            } catch (Exception e) {
                throw new AssertionError(what + ": " + e, e);
            }
            if (Objects.equals(expected, last)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail(what + ": expected <" + expected + "> within " + timeout.toMillis() + " ms but was <" + last + ">");
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
