package io.strata.core.ufs.s3;

import software.amazon.awssdk.crt.s3.S3BorrowedBuffer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The slots of the CRT client's buffer pool that are lent out ({@link CrtGetResponse}), counted so
 * that the client closes its pool only once every slot is back: the pool frees its memory when it
 * closes, and a reader still holding a slot would then read unmapped memory.
 */
final class LentSlots {
    private int out;

    /** A lease on a slot, counted until closed: {@code giveBack} returns it to the pool ({@link S3BorrowedBuffer#close}). */
    synchronized Lease lend(Runnable giveBack) {
        out++;
        return new Lease(giveBack);
    }

    private synchronized void returned() {
        out--;
        notifyAll();
    }

    /** Waits up to {@code timeout} for every slot to come back; returns how many are still out. */
    synchronized int awaitAllBack(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (long left = timeout.toNanos(); out > 0 && left > 0; left = deadline - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    /** One slot lent: closing it gives the slot back to the pool, once. */
    final class Lease implements AutoCloseable {
        private final Runnable giveBack;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Lease(Runnable giveBack) {
            this.giveBack = giveBack;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                try {
                    giveBack.run();
                } finally {
                    returned();
                }
            }
        }
    }
}
