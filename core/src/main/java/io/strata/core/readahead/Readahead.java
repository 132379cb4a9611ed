package io.strata.core.readahead;

import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The readahead engine of one volume: its settings, its buffer budget and its streams reading now
 * (which share the readahead window), both shared by all its files, and its counters.
 * {@link #open} gives each open file version its {@link Prefetcher}.
 */
public final class Readahead {
    private final ReadaheadConfig config;
    private final BufferBudget budget;
    private final ActiveStreams streams;
    private final ReadaheadStats stats = new ReadaheadStats();

    public Readahead(ReadaheadConfig config) {
        this(config, System::nanoTime);
    }

    /** As {@link #Readahead(ReadaheadConfig)}, telling streams' idleness by {@code nanoTime}: tests move it. */
    Readahead(ReadaheadConfig config, LongSupplier nanoTime) {
        this.config = requireNonNull(config, "config is null");
        this.budget = new BufferBudget(config.bufferSize());
        this.streams = new ActiveStreams(nanoTime);
    }

    /**
     * A prefetcher over one version of one object of {@code size} bytes, read through
     * {@code fetcher}; {@code name} (the file's path) goes into messages. Close it when the file is
     * closed or its version changes: that drops its buffers.
     */
    public Prefetcher open(RangeFetcher fetcher, long size, String name) {
        return new Prefetcher(this, fetcher, size, name);
    }

    public ReadaheadConfig config() {
        return config;
    }

    public BufferBudget budget() {
        return budget;
    }

    ActiveStreams streams() {
        return streams;
    }

    public ReadaheadStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return "Readahead[" + config + ", " + budget + "]";
    }
}
