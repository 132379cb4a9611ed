package io.strata.client;

import java.time.Instant;

/** Wall-clock time in nanoseconds since the epoch, the unit of every inode timestamp. */
final class Clocks {
    private Clocks() {}

    static long nowNs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
