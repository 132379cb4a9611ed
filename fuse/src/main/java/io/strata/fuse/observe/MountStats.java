package io.strata.fuse.observe;

import io.strata.client.metrics.StrataMeters;

/**
 * What a transport reports to while it serves: the operations' meters, the access log, and the
 * control files that show both.
 */
public record MountStats(FuseMeters meters, AccessLog accessLog, ControlFiles controlFiles) {
    public static MountStats of(StrataMeters meters) {
        AccessLog accessLog = new AccessLog(meters.registry());
        return new MountStats(new FuseMeters(meters.registry()), accessLog, new ControlFiles(meters, accessLog));
    }
}
