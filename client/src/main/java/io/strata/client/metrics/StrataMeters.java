package io.strata.client.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The meters of a volume's client: one Prometheus registry, so that {@code /metrics} and the
 * mount's {@code .stats} file render the same meters, with the JVM's and the process's own beside
 * Strata's (docs/METRICS.md lists them all).
 *
 * <p>The JVM's and the process's meters are bound when the meters are first read, not at mount:
 * binding them took ~0.25 s of CPU (the management beans), which a mount's start and its first
 * requests would otherwise pay on a machine of two cores whether anyone looks or not. Their
 * counters (GC pauses, allocation) count from that first read; gauges show the current value.
 */
public final class StrataMeters {
    /** Resident memory is what an operator compares with other clients; the JVM reports only its pools. */
    static final String PROCESS_RSS = "strata.process.resident.memory";
    private static final Path STATM = Path.of("/proc/self/statm");
    private static final long PAGE_SIZE = 4096;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicBoolean processBound = new AtomicBoolean();

    private StrataMeters() {}

    public static StrataMeters create() {
        return new StrataMeters();
    }

    /** Where the client's parts register their meters. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Every meter in Prometheus's text format, histograms included. */
    public String scrape() {
        if (processBound.compareAndSet(false, true)) {
            bindJvmAndProcess(registry);
        }
        return registry.scrape();
    }

    /** The GC meters hold a notification listener for the JVM's life: one registry per volume, no leak worth a close. */
    private static void bindJvmAndProcess(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        if (Files.isReadable(STATM)) {
            Gauge.builder(PROCESS_RSS, StrataMeters::residentBytes).baseUnit("bytes")
                    .description("the process's resident set size (/proc/self/statm)").register(registry);
        }
    }

    private static double residentBytes() {
        try {
            String[] fields = Files.readString(STATM).trim().split(" ");
            return Long.parseLong(fields[1]) * PAGE_SIZE;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
