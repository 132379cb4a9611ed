package io.strata.cli.objbench;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * One measured line of the throughput phase: {@code operations} requests moving {@code bytes}, run
 * {@code threads} at a time, done in {@code elapsedNanos} of wall time, the requests' own times
 * adding up to {@code latencyNanos}.
 *
 * @param item what was measured, e.g. "put small objects"
 * @param unit what one operation handles: "object" or "block"
 * @param bandwidth whether the rate to show is MiB/s (big object) rather than operations/s
 */
public record ThroughputRow(String item, String unit, boolean bandwidth, int operations, long bytes,
                            long elapsedNanos, long latencyNanos) {
    public ThroughputRow {
        requireNonNull(item, "item is null");
        requireNonNull(unit, "unit is null");
    }

    public double seconds() {
        return elapsedNanos / 1e9;
    }

    public double operationsPerSecond() {
        return elapsedNanos == 0 ? 0 : operations / seconds();
    }

    public double mibPerSecond() {
        return elapsedNanos == 0 ? 0 : bytes / (1024.0 * 1024.0) / seconds();
    }

    /** The average time of one request, in milliseconds. */
    public double averageLatencyMillis() {
        return operations == 0 ? 0 : latencyNanos / 1e6 / operations;
    }

    /** {@code 123.45 MiB/s} or {@code 456.7 objects/s}. */
    public String value() {
        return bandwidth ? String.format(Locale.ROOT, "%.2f MiB/s", mibPerSecond())
                : String.format(Locale.ROOT, "%.1f %ss/s", operationsPerSecond(), unit);
    }

    /** {@code 12.34 ms/object}: the average latency. */
    public String cost() {
        return String.format(Locale.ROOT, "%.2f ms/%s", averageLatencyMillis(), unit);
    }
}
