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

/**
 * The one meter registry of a volume's client: Prometheus's, so that {@code /metrics} and the
 * mount's {@code .stats} file render the same meters, with the JVM's and the process's own bound
 * beside Strata's (docs/METRICS.md lists them all).
 */
public final class StrataMeters {
    /** Resident memory is what an operator compares with other clients; the JVM reports only its pools. */
    static final String PROCESS_RSS = "strata.process.resident.memory";
    private static final Path STATM = Path.of("/proc/self/statm");
    private static final long PAGE_SIZE = 4096;

    private StrataMeters() {}

    /**
     * A new registry with the JVM's meters bound. The GC meters hold a notification listener for the
     * JVM's life; a process makes one registry per volume, so that is not a leak worth a close.
     */
    public static PrometheusMeterRegistry create() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        bindResidentMemory(registry);
        return registry;
    }

    private static void bindResidentMemory(MeterRegistry registry) {
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
