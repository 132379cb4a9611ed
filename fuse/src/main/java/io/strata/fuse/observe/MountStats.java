package io.strata.fuse.observe;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * What a transport reports to while it serves: the operations' meters, the access log, and the
 * control files that show both.
 */
public record MountStats(FuseMeters meters, AccessLog accessLog, ControlFiles controlFiles) {
    public static MountStats of(PrometheusMeterRegistry registry) {
        AccessLog accessLog = new AccessLog(registry);
        return new MountStats(new FuseMeters(registry), accessLog, new ControlFiles(registry, accessLog));
    }
}
