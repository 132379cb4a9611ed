package io.strata.core.readahead;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The volume's streams that are reading now, across all its files: a stream counts from its
 * second read until it has not read for {@link #IDLE_AFTER_NANOS}, its file closes, or its session
 * is evicted. Streams reading at once share {@code max_readahead} ({@link ReadaheadConfig#streamWindow}):
 * a lone stream over a high-latency link needs a deep window to keep enough GETs in flight, while
 * two streams at once are bound by the CPU and gain nothing from more than their share, only
 * resident memory (docs/PERFORMANCE.md, forty-second round).
 *
 * <p>Thread-safe: every prefetcher of the volume reports here under its own lock.
 */
final class ActiveStreams {
    /** A stream that has not read for this long no longer counts: it ended, or its reader is busy elsewhere. */
    static final long IDLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LongSupplier nanoTime;
    private final ConcurrentMap<ReadaheadSession, Long> lastRead = new ConcurrentHashMap<>();

    ActiveStreams(LongSupplier nanoTime) {
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    }

    /** {@code stream} reads now; returns how many streams read now, this one included. */
    int reading(ReadaheadSession stream) {
        long now = nanoTime.getAsLong();
        lastRead.put(stream, now);
        lastRead.values().removeIf(last -> now - last > IDLE_AFTER_NANOS);
        return Math.max(1, lastRead.size());
    }

    /** {@code stream} will read no more: its file closed or its session was evicted. */
    void ended(ReadaheadSession stream) {
        lastRead.remove(stream);
    }
}
