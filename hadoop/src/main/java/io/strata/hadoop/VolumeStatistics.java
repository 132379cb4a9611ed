package io.strata.hadoop;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hadoop.fs.statistics.IOStatistics;

import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.dynamicIOStatistics;

/**
 * The volume's meters (docs/METRICS.md) as Hadoop {@link IOStatistics}, read live: how much the
 * page cache served and how much came from the under storage (through the cache, and in all), summed
 * over the cache's tiers.
 */
final class VolumeStatistics {
    static final String CACHE_HITS = "strata_cache_hits";
    static final String CACHE_MISSES = "strata_cache_misses";
    static final String CACHE_BYTES_READ = "strata_cache_bytes_read";
    static final String CACHE_FILLS = "strata_cache_fills";
    static final String UFS_FETCHES = "strata_cache_fetches";
    static final String UFS_BYTES_FETCHED = "strata_cache_bytes_fetched";
    static final String UFS_BYTES_READ = "strata_ufs_bytes_read";

    private final IOStatistics statistics;

    VolumeStatistics(MeterRegistry meters) {
        this.statistics = dynamicIOStatistics()
                .withLongFunctionCounter(CACHE_HITS, key -> sum(meters, "strata.cache.hits"))
                .withLongFunctionCounter(CACHE_MISSES, key -> sum(meters, "strata.cache.misses"))
                .withLongFunctionCounter(CACHE_BYTES_READ, key -> sum(meters, "strata.cache.bytes.read"))
                .withLongFunctionCounter(CACHE_FILLS, key -> sum(meters, "strata.cache.fills"))
                .withLongFunctionCounter(UFS_FETCHES, key -> sum(meters, "strata.cache.fetches"))
                .withLongFunctionCounter(UFS_BYTES_FETCHED, key -> sum(meters, "strata.cache.bytes.fetched"))
                .withLongFunctionCounter(UFS_BYTES_READ, key -> (long) meters.find("strata.ufs.bytes")
                        .tag("direction", "read").counters().stream().mapToDouble(Counter::count).sum())
                .build();
    }

    IOStatistics ioStatistics() {
        return statistics;
    }

    private static long sum(MeterRegistry meters, String name) {
        return (long) meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }
}
