package io.strata.core.ufs.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.strata.core.metrics.OpMeters;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * The under storage's meters: {@code strata.ufs.ops} (a timer per {@code op}),
 * {@code strata.ufs.errors} (per {@code op}) and {@code strata.ufs.bytes} (per {@code direction},
 * {@code read} or {@code written}).
 */
final class UfsMeters {
    static final String BYTES = "strata.ufs.bytes";

    private final MeterRegistry registry;
    private final OpMeters ops;
    final Counter bytesRead;
    final Counter bytesWritten;

    UfsMeters(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
        this.ops = new OpMeters(registry, "strata.ufs", "under storage operations");
        this.bytesRead = bytes("read");
        this.bytesWritten = bytes("written");
    }

    private Counter bytes(String direction) {
        return Counter.builder(BYTES).tag("direction", direction).baseUnit("bytes")
                .description("bytes read from and written to the under storage").register(registry);
    }

    <T> T timed(String name, OpMeters.Call<T> call) throws IOException {
        return ops.timed(name, call);
    }

    void timed(String name, OpMeters.VoidCall call) throws IOException {
        ops.timed(name, call);
    }
}
