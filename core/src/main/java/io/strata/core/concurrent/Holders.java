package io.strata.core.concurrent;

import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * The holders of something given back when the last of them lets go: memory the S3 client lends
 * (a readahead part, its pages being read or stored), an open page file (its readers, and the
 * bound that keeps it open). Created with one holder, the one that received it; once given back,
 * it is never held again.
 */
public final class Holders {
    private final AtomicInteger count = new AtomicInteger(1);
    private final Runnable giveBack;

    /** One holder, the receiver; {@code giveBack} runs when the last holder lets go. */
    public Holders(Runnable giveBack) {
        this.giveBack = requireNonNull(giveBack, "giveBack is null");
    }

    /** Adds a holder; false, adding none, when it has been given back already. */
    public boolean retain() {
        while (true) {
            int now = count.get();
            if (now == 0) {
                return false;
            }
            if (count.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A holder lets go; the last one gives it back. Once per {@link #retain} and once for the receiver. */
    public void release() {
        int left = count.decrementAndGet();
        if (left < 0) {
            throw new IllegalStateException("released more often than held");
        }
        if (left == 0) {
            giveBack.run();
        }
    }

    /** Whether it has been given back; for tests and messages. */
    public boolean givenBack() {
        return count.get() == 0;
    }

    @Override
    public String toString() {
        return "Holders[" + count.get() + "]";
    }
}
