package io.strata.core.readahead;

import java.io.InterruptedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The backpressure of the read path: the bytes the readahead buffers of one volume may hold, being
 * fetched or fetched and not read yet, shared by all its open files. A semaphore counted in bytes,
 * with two ways in:
 *
 * <ul>
 *   <li>{@link #tryReserve} for readahead, which is speculative: it never waits, and gets nothing
 *       while a reader waits (the session shrinks its window instead);</li>
 *   <li>{@link #reserve} for the bytes a reader needs now: it waits for room, and first asks the
 *       files to give back fetched bytes nobody is reading ({@link Reclaimable}), so readahead
 *       parked in idle files cannot starve a reader.</li>
 * </ul>
 *
 * <p>The reserved total never exceeds the limit. A reservation is held by its part until the part
 * is read or dropped, so a fetch in flight always holds one: the budget bounds the bytes in
 * flight, never the number of threads (there is none per fetch).
 */
public final class BufferBudget {
    /** A holder of fetched bytes that can drop some under pressure. */
    interface Reclaimable {
        /**
         * Drops fetched, unread bytes nobody is waiting for, about {@code wanted} of them, without
         * blocking (a holder that is busy gives nothing); returns the bytes given back.
         */
        long reclaim(long wanted);
    }

    /** How long a waiting reader sleeps before it tries reclaiming again, if nothing woke it. */
    private static final long RECHECK_MS = 50;

    private final long limit;
    private final Set<Reclaimable> holders = ConcurrentHashMap.newKeySet();
    /** Guarded by this. */
    private long used;
    private long peak;
    private int waiting;

    public BufferBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit is not positive: " + limit);
        }
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    /** Bytes reserved now. */
    public synchronized long used() {
        return used;
    }

    /** The most bytes ever reserved at once. */
    public synchronized long peak() {
        return peak;
    }

    /** Reserves {@code bytes} if there is room and no reader is waiting for room; never waits. */
    public synchronized boolean tryReserve(long bytes) {
        checkSize(bytes);
        if (waiting > 0 || used + bytes > limit) {
            return false;
        }
        take(bytes);
        return true;
    }

    /**
     * Reserves {@code bytes} (at most the limit), waiting for room as long as it takes: reservations
     * are given back as fetches are read or dropped, and idle holders are asked to give back
     * theirs. The caller must hold no lock a holder's {@code reclaim} or {@code release} takes.
     *
     * @throws InterruptedIOException if the thread is interrupted while waiting
     */
    public void reserve(long bytes) throws InterruptedIOException {
        checkSize(bytes);
        if (bytes > limit) {
            throw new IllegalArgumentException("reservation of " + bytes + " bytes exceeds the budget of " + limit);
        }
        while (true) {
            long missing;
            synchronized (this) {
                if (used + bytes <= limit) {
                    take(bytes);
                    return;
                }
                missing = used + bytes - limit;
            }
            reclaim(missing);
            synchronized (this) {
                if (used + bytes <= limit) {
                    take(bytes);
                    return;
                }
                waiting++;
                try {
                    wait(RECHECK_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for readahead buffer space");
                } finally {
                    waiting--;
                }
            }
        }
    }

    public synchronized void release(long bytes) {
        checkSize(bytes);
        if (bytes > used) {
            throw new IllegalStateException("releasing " + bytes + " bytes, only " + used + " reserved");
        }
        used -= bytes;
        if (waiting > 0) {
            notifyAll();
        }
    }

    /** Something may have become reclaimable (a fetch completed): waiting readers look again. */
    synchronized void wakeWaiters() {
        if (waiting > 0) {
            notifyAll();
        }
    }

    void register(Reclaimable holder) {
        holders.add(holder);
    }

    void unregister(Reclaimable holder) {
        holders.remove(holder);
    }

    private void reclaim(long wanted) {
        long freed = 0;
        for (Reclaimable holder : holders) {
            if (freed >= wanted) {
                return;
            }
            freed += holder.reclaim(wanted - freed);
        }
    }

    private void take(long bytes) {
        used += bytes;
        peak = Math.max(peak, used);
    }

    private static void checkSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes is negative: " + bytes);
        }
    }

    @Override
    public synchronized String toString() {
        return "BufferBudget[" + used + "/" + limit + "]";
    }
}
