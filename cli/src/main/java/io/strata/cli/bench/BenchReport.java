package io.strata.cli.bench;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a {@code strata bench} run found: where it ran, what it did ({@code spec}), a row per
 * phase, why the kernel caches were not dropped (if they were not), and the whole run's time.
 * {@link BenchTable} and {@link BenchJson} print it.
 */
public record BenchReport(BenchTarget target, BenchSpec spec, List<BenchResult> results, Optional<String> cachesNotDropped,
                   long nanos) {
    public BenchReport {
        requireNonNull(target, "target is null");
        requireNonNull(spec, "spec is null");
        results = List.copyOf(results);
        requireNonNull(cachesNotDropped, "cachesNotDropped is null");
    }
}
