package io.strata.core.readahead;

import static java.util.Objects.requireNonNull;

/**
 * The readahead engine of one volume: its settings, its buffer budget shared by all its files, and
 * its counters. {@link #open} gives each open file version its {@link Prefetcher}.
 */
public final class Readahead {
    private final ReadaheadConfig config;
    private final BufferBudget budget;
    private final ReadaheadStats stats = new ReadaheadStats();

    public Readahead(ReadaheadConfig config) {
        this.config = requireNonNull(config, "config is null");
        this.budget = new BufferBudget(config.bufferSize());
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

    public ReadaheadStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return "Readahead[" + config + ", " + budget + "]";
    }
}
