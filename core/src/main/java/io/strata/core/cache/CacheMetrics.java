package io.strata.core.cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.ToDoubleFunction;

import static java.util.Objects.requireNonNull;

/**
 * The page store's meters, all named {@code strata.cache.*} and tagged with the {@code tier}
 * they describe: {@code memory}, {@code disk}, {@code ufs} (the under storage, for fetches) or
 * {@code all} (the read path as a whole).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>tiers</th><th>what</th></tr>
 *   <tr><td>strata.cache.hits</td><td>memory, disk</td><td>page lookups served</td></tr>
 *   <tr><td>strata.cache.misses</td><td>memory, disk</td><td>page lookups not served</td></tr>
 *   <tr><td>strata.cache.bytes.read</td><td>memory, disk</td><td>bytes served from the tier</td></tr>
 *   <tr><td>strata.cache.fetches</td><td>ufs</td><td>pages read from the under storage</td></tr>
 *   <tr><td>strata.cache.bytes.fetched</td><td>ufs</td><td>bytes read from the under storage</td></tr>
 *   <tr><td>strata.cache.fetches.shared</td><td>ufs</td><td>misses that joined a fetch already in flight</td></tr>
 *   <tr><td>strata.cache.reads.bypassed</td><td>ufs</td><td>misses read directly, just their bytes, while no
 *       tier could take pages (directories unusable or full)</td></tr>
 *   <tr><td>strata.cache.fills</td><td>memory, disk</td><td>pages stored</td></tr>
 *   <tr><td>strata.cache.fills.dropped</td><td>all, memory, disk</td><td>pages not stored: fill queue full
 *       (all), no room or tier unusable (memory, disk)</td></tr>
 *   <tr><td>strata.cache.evictions</td><td>memory, disk</td><td>pages evicted for room</td></tr>
 *   <tr><td>strata.cache.promotions</td><td>memory</td><td>disk pages copied up into memory</td></tr>
 *   <tr><td>strata.cache.checksum.failures</td><td>disk</td><td>pages found corrupt or short on read, dropped</td></tr>
 *   <tr><td>strata.cache.pages.lost</td><td>disk</td><td>indexed pages whose file was gone, dropped</td></tr>
 *   <tr><td>strata.cache.used.bytes</td><td>memory, disk</td><td>bytes held (gauge)</td></tr>
 *   <tr><td>strata.cache.capacity.bytes</td><td>memory, disk</td><td>the tier's quota (gauge)</td></tr>
 *   <tr><td>strata.cache.pages</td><td>memory, disk</td><td>pages held (gauge)</td></tr>
 * </table>
 */
public final class CacheMetrics {
    private final MeterRegistry registry;

    public CacheMetrics(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The counters of one tier. */
    Tier tier(String tier) {
        return new Tier(registry, tier);
    }

    /** Registers the used-bytes, capacity and page-count gauges of {@code store} under {@code tier}. */
    void gauges(String tier, PageStore store) {
        gauge("strata.cache.used.bytes", tier, store, PageStore::usedBytes, "bytes");
        gauge("strata.cache.capacity.bytes", tier, store, PageStore::capacityBytes, "bytes");
        gauge("strata.cache.pages", tier, store, PageStore::pageCount, null);
    }

    private void gauge(String name, String tier, PageStore store, ToDoubleFunction<PageStore> value, String unit) {
        Gauge.builder(name, store, value).tag("tier", tier).baseUnit(unit).strongReference(true).register(registry);
    }

    /** One tier's counters; cheap to call on the read path (no lookups). */
    static final class Tier {
        final Counter hits;
        final Counter misses;
        final Counter bytesRead;
        final Counter fills;
        final Counter fillsDropped;
        /** Fills a reader did itself because the fill pool was behind. */
        final Counter inlineFills;
        final Counter evictions;
        final Counter promotions;
        final Counter checksumFailures;
        final Counter pagesLost;
        /** Page files queued to be read back whole into the kernel's page cache after a slow read. */
        final Counter pagesWarmed;
        final Counter fetches;
        final Counter bytesFetched;
        final Counter sharedFetches;
        final Counter bypassedReads;
        final Counter blocksLoaded;
        final Counter loadsDropped;

        private Tier(MeterRegistry registry, String tier) {
            hits = counter(registry, "strata.cache.hits", tier);
            misses = counter(registry, "strata.cache.misses", tier);
            bytesRead = counter(registry, "strata.cache.bytes.read", tier);
            fills = counter(registry, "strata.cache.fills", tier);
            fillsDropped = counter(registry, "strata.cache.fills.dropped", tier);
            inlineFills = counter(registry, "strata.cache.fills.inline", tier);
            blocksLoaded = counter(registry, "strata.cache.blocks.loaded", tier);
            loadsDropped = counter(registry, "strata.cache.loads.dropped", tier);
            evictions = counter(registry, "strata.cache.evictions", tier);
            promotions = counter(registry, "strata.cache.promotions", tier);
            checksumFailures = counter(registry, "strata.cache.checksum.failures", tier);
            pagesLost = counter(registry, "strata.cache.pages.lost", tier);
            pagesWarmed = counter(registry, "strata.cache.pages.warmed", tier);
            fetches = counter(registry, "strata.cache.fetches", tier);
            bytesFetched = counter(registry, "strata.cache.bytes.fetched", tier);
            sharedFetches = counter(registry, "strata.cache.fetches.shared", tier);
            bypassedReads = counter(registry, "strata.cache.reads.bypassed", tier);
        }

        private static Counter counter(MeterRegistry registry, String name, String tier) {
            return Counter.builder(name).tag("tier", tier).register(registry);
        }
    }
}
