package io.strata.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * A timer (with a latency histogram) and an error counter per operation of one part, named
 * {@code <prefix>.ops} and {@code <prefix>.errors} and tagged {@code op}: the metastore's engine
 * calls, the under storage's operations. An operation's meters are made on first use and found
 * with one map read after.
 */
public final class OpMeters {
    private final MeterRegistry registry;
    private final String opsName;
    private final String errorsName;
    private final String what;
    private final ConcurrentMap<String, Op> ops = new ConcurrentHashMap<>();

    /** @param what what is counted, for the meters' descriptions ("metastore engine calls") */
    public OpMeters(MeterRegistry registry, String prefix, String what) {
        this.registry = requireNonNull(registry, "registry is null");
        this.opsName = prefix + ".ops";
        this.errorsName = prefix + ".errors";
        this.what = requireNonNull(what, "what is null");
    }

    private record Op(Timer timer, Counter errors) {}

    /** An operation that may fail with an I/O error. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws IOException;
    }

    /** The same, with no result. */
    @FunctionalInterface
    public interface VoidCall {
        void run() throws IOException;
    }

    private Op op(String name) {
        return ops.computeIfAbsent(name, n -> new Op(
                Timer.builder(opsName).tag("op", n).description(what).publishPercentileHistogram().register(registry),
                Counter.builder(errorsName).tag("op", n).description(what + " that failed").register(registry)));
    }

    /** Runs {@code call}, timing it as {@code op} and counting it as an error if it throws. */
    public <T> T timed(String op, Call<T> call) throws IOException {
        Op meters = op(op);
        long start = System.nanoTime();
        try {
            return call.run();
        } catch (IOException | RuntimeException e) {
            meters.errors().increment();
            throw e;
        } finally {
            meters.timer().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    public void timed(String op, VoidCall call) throws IOException {
        timed(op, () -> {
            call.run();
            return null;
        });
    }
}
