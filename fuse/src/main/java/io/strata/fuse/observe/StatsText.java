package io.strata.fuse.observe;

import io.strata.client.metrics.StrataMeters;

import java.util.stream.Collectors;

/**
 * The text of {@code .stats}: every meter's current value, one {@code name{labels} value} line each,
 * under the same names as the Prometheus endpoint (docs/METRICS.md), without the comment lines and
 * histogram buckets a person reading the file does not want.
 */
final class StatsText {
    private StatsText() {}

    static String render(StrataMeters meters) {
        return meters.scrape().lines()
                .filter(line -> !line.isEmpty() && !line.startsWith("#") && !line.contains("_bucket{"))
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
