package io.strata.core.ufs.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The under storage's meters: {@code strata.ufs.ops} (a timer per {@code op}),
 * {@code strata.ufs.errors} (per {@code op}) and {@code strata.ufs.bytes} (per {@code direction},
 * {@code read} or {@code written}).
 */
final class UfsMeters {
    static final String OPS = "strata.ufs.ops";
    static final String ERRORS = "strata.ufs.errors";
    static final String BYTES = "strata.ufs.bytes";

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Op> ops = new ConcurrentHashMap<>();
    final Counter bytesRead;
    final Counter bytesWritten;

    UfsMeters(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
        this.bytesRead = bytes("read");
        this.bytesWritten = bytes("written");
    }

    private Counter bytes(String direction) {
        return Counter.builder(BYTES).tag("direction", direction).baseUnit("bytes")
                .description("bytes read from and written to the under storage").register(registry);
    }

    private record Op(Timer timer, Counter errors) {}

    @FunctionalInterface
    interface Call<T> {
        T run() throws IOException;
    }

    @FunctionalInterface
    interface VoidCall {
        void run() throws IOException;
    }

    private Op op(String name) {
        return ops.computeIfAbsent(name, n -> new Op(
                Timer.builder(OPS).tag("op", n).description("under storage operations")
                        .publishPercentileHistogram().register(registry),
                Counter.builder(ERRORS).tag("op", n).description("under storage operations that failed")
                        .register(registry)));
    }

    <T> T timed(String name, Call<T> call) throws IOException {
        Op op = op(name);
        long start = System.nanoTime();
        try {
            return call.run();
        } catch (IOException | RuntimeException e) {
            op.errors().increment();
            throw e;
        } finally {
            op.timer().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    void timed(String name, VoidCall call) throws IOException {
        timed(name, () -> {
            call.run();
            return null;
        });
    }
}
