package io.strata.core.buffer;

import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * A buffer lent by its owner and shared by several holders: given back (its lease closed) when the
 * last holder lets go, and never handed to a new holder after that. Created with one holder, the
 * one that received it.
 */
public final class SharedMemory {
    private final AtomicInteger holders = new AtomicInteger(1);
    private final AutoCloseable lease;

    private SharedMemory(AutoCloseable lease) {
        this.lease = requireNonNull(lease, "lease is null");
    }

    /** Memory held by its receiver alone until it {@link #release}s it or shares it ({@link #retain}). */
    public static SharedMemory lentBy(AutoCloseable lease) {
        return new SharedMemory(lease);
    }

    /** Adds a holder; false, adding none, when the memory has been given back already. */
    public boolean retain() {
        while (true) {
            int now = holders.get();
            if (now == 0) {
                return false;
            }
            if (holders.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A holder lets go; the last one gives the memory back. Once per {@link #retain} and once for the receiver. */
    public void release() {
        int left = holders.decrementAndGet();
        if (left > 0) {
            return;
        }
        if (left < 0) {
            throw new IllegalStateException("memory released more often than it was held");
        }
        try {
            lease.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not give back lent memory: " + e, e);
        }
    }

    /** Whether it has been given back; for tests and messages. */
    public boolean givenBack() {
        return holders.get() == 0;
    }

    @Override
    public String toString() {
        return "SharedMemory[holders=" + holders.get() + "]";
    }
}
