package io.strata.cli.bench;

import static java.util.Objects.requireNonNull;

/**
 * One timed phase of {@code strata bench}: {@code files} files of {@code fileSize} bytes (so
 * {@code bytes} in all; none for a stat) handled by {@code threads} threads in {@code nanos}.
 */
public record BenchResult(BenchItem item, int threads, long files, long fileSize, long bytes, long nanos) {
    private static final double MIB = 1 << 20;

    public BenchResult {
        requireNonNull(item, "item is null");
        if (threads < 1 || files < threads || nanos < 0) {
            throw new IllegalArgumentException("bad result: " + threads + " threads, " + files + " files, "
                    + nanos + " ns");
        }
    }

    public double seconds() {
        return nanos / 1e9;
    }

    /** MiB/s for the big file rows, files/s for the others; all threads together. */
    public double rate() {
        double seconds = Math.max(seconds(), 1e-9); // a phase faster than the clock still gets a figure
        return item.bigFile() ? bytes / MIB / seconds : files / seconds;
    }

    /**
     * The time one file takes, as one thread sees it (the phase's time over the files each thread
     * handled, as JuiceFS counts it): seconds for the big file rows, milliseconds for the others.
     */
    public double cost() {
        double perThread = seconds() / ((double) files / threads);
        return item.bigFile() ? perThread : perThread * 1000;
    }

    public BenchItem.Rating rateRating() {
        return item.rateRating(rate(), threads);
    }

    public BenchItem.Rating costRating() {
        return item.costRating(cost(), fileSize);
    }
}
