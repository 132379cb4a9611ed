package io.strata.core.cache;

import io.strata.core.buffer.LentBytesSink;
import io.strata.core.concurrent.DaemonThreads;
import io.micrometer.core.instrument.MeterRegistry;
import io.strata.core.cache.evict.EvictionPolicies;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The data cache of one mount: its {@link PageStore} (memory tier, disk tier, or both), the
 * read path through it, and the bounded pool that fills it. What the client holds and calls.
 */
public final class PageCache implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(PageCache.class);
    /** Threads that write fetched pages into the store. */
    static final int FILL_THREADS = 2;
    /** Fills waiting for a thread; past this a fill is dropped. Bounds the fetched pages kept in memory. */
    static final int FILL_QUEUE = 64;

    /** Random reads load blocks only into a cache that holds at least this many of them. */
    static final int LOAD_BLOCKS_MIN = 8;

    private final PageStore store;
    private final int pageSize;
    private final boolean cacheOnWrite;
    private final CacheMetrics metrics;
    private final ExecutorService ownedPool;
    private final PageReader reader;
    /** Null when random_read_load_block is 0. */
    private final BlockLoader loader;
    /** Where each file's recent short reads ended: a read that starts elsewhere is a random one. */
    private final Cache<String, ReadPattern> readPatterns = Caffeine.newBuilder()
            .maximumSize(4096)
            .executor(Runnable::run) // no thread woken per read
            .build();

    /**
     * @param fills where fills (and promotions) run
     * @param ownedPool shut down at close, or null when the caller owns {@code fills}
     */
    PageCache(PageStore store, int pageSize, boolean cacheOnWrite, long loadBlockBytes, CacheMetrics metrics,
              Executor fills, ExecutorService ownedPool) {
        this.store = requireNonNull(store, "store is null");
        this.pageSize = pageSize;
        this.cacheOnWrite = cacheOnWrite;
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.ownedPool = ownedPool;
        this.reader = new PageReader(store, pageSize, fills, metrics);
        // A block must be a small part of the cache, or loading it would evict what it loads.
        this.loader = loadBlockBytes > 0 && loadBlockBytes <= store.capacityBytes() / LOAD_BLOCKS_MIN
                ? new BlockLoader(reader, store, pageSize, loadBlockBytes, metrics) : null;
    }

    /** The cache {@code config} describes, with its meters in {@code registry}; null when it has no tier. */
    public static PageCache open(PageStoreConfig config, MeterRegistry registry) {
        if (!config.enabled()) {
            return null;
        }
        ThreadPoolExecutor pool = fillPool();
        try {
            return open(config, new CacheMetrics(registry), pool, pool, DiskSpace.SYSTEM, System::nanoTime);
        } catch (RuntimeException e) {
            pool.shutdown();
            throw e;
        }
    }

    /** As {@link #open(PageStoreConfig, MeterRegistry)}, with every moving part given: for tests and benchmarks. */
    public static PageCache open(PageStoreConfig config, CacheMetrics metrics, Executor fills, ExecutorService ownedPool,
                                 DiskSpace space, LongSupplier nanoClock) {
        MemoryPageStore memory = config.memoryBytes() > 0
                ? new MemoryPageStore(config.pageSize(), config.memoryBytes(),
                        EvictionPolicies.create(config.eviction(), config.memoryBytes()), metrics, nanoClock)
                : null;
        DiskPageStore disk = config.dirs().isEmpty() ? null
                : new DiskPageStore(config.dirs(), config.freeSpaceRatio(), config.eviction(), metrics, space, nanoClock);
        PageStore store = memory == null ? disk : disk == null ? memory
                : new TieredPageStore(memory, disk, fills, metrics);
        log.info("page cache: {} (pages of {} bytes, {} eviction)", store, config.pageSize(), config.eviction());
        return new PageCache(store, config.pageSize(), config.cacheOnWrite(), config.loadBlockBytes(), metrics, fills,
                ownedPool);
    }

    private static ThreadPoolExecutor fillPool() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(FILL_THREADS, FILL_THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(FILL_QUEUE), DaemonThreads.numbered("strata-cache-fill"),
                new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    public int pageSize() {
        return pageSize;
    }

    public boolean cacheOnWrite() {
        return cacheOnWrite;
    }

    public PageStore store() {
        return store;
    }

    public CacheMetrics metrics() {
        return metrics;
    }

    /**
     * Reads version {@code version} of file {@code fileKey} at {@code offset} through the cache,
     * fetching missing pages from {@code source}; returns the bytes read, short only at the end
     * of the file.
     */
    public int read(PageSource source, String fileKey, String version, ByteBuffer dst, long offset)
            throws IOException {
        return reader.read(source, fileKey, version, dst, offset);
    }

    /**
     * As {@link #read(PageSource, String, String, ByteBuffer, long)}, for a file of {@code size}
     * bytes: a random read (shorter than a page, and starting neither at 0 nor where it would
     * continue one of the file's recent streams, see {@link ReadPattern}) that misses also has the
     * block around it loaded in the background ({@link BlockLoader}). Sequential streams, however
     * many and however their requests are split, are left to the readahead. The pages a random read
     * fetches are stored as read again {@link Reread#SOON}, a stream's as read again {@link
     * Reread#LATER}.
     */
    public int read(PageSource source, String fileKey, String version, long size, ByteBuffer dst, long offset)
            throws IOException {
        return read(source, fileKey, version, size, dst, offset, null);
    }

    /**
     * As {@link #read(PageSource, String, String, long, ByteBuffer, long)}; {@code sink} (if any)
     * may take the bytes of fetched pages that are in lent memory instead of a copy of them.
     */
    public int read(PageSource source, String fileKey, String version, long size, ByteBuffer dst, long offset,
                    LentBytesSink sink) throws IOException {
        if (!isRandom(fileKey, offset, dst.remaining())) {
            return reader.read(source, fileKey, version, dst, offset, Reread.LATER, null, sink);
        }
        return reader.read(source, fileKey, version, dst, offset, Reread.SOON,
                loader == null ? null : missed -> loader.missed(source, missed, size), sink);
    }

    /**
     * {@code length} bytes of version {@code version} of file {@code fileKey} at {@code offset},
     * within the file's end, as regions of page files to splice, when the store can lend every
     * page the read touches now; null otherwise (read them instead: a page missing, in flight, or
     * in the memory tier). Counts as a read of the range, for the file's read pattern as well.
     */
    public PageRegions regions(String fileKey, String version, long offset, int length) {
        ReadPattern pattern = pattern(fileKey);
        Reread reread = length < pageSize && pattern.wouldBeRandom(offset) ? Reread.SOON : Reread.LATER; // as a read's
        PageRegions regions = reader.regions(fileKey, version, offset, length, reread);
        if (regions != null) {
            pattern.randomRead(offset, offset + length); // recorded only when lent: a read that follows records itself
        }
        return regions;
    }

    /** Records a read of {@code length} bytes at {@code offset}; whether it is a random one ({@link ReadPattern}). */
    private boolean isRandom(String fileKey, long offset, int length) {
        return length < pageSize && pattern(fileKey).randomRead(offset, offset + length);
    }

    private ReadPattern pattern(String fileKey) {
        return readPatterns.get(fileKey, key -> new ReadPattern(pageSize));
    }

    /** Stores a page in the background (written data, with cache_on_write); dropped if the pool is busy. */
    public void offer(PageId id, ByteBuffer page) {
        reader.fill(id, page, Reread.LATER, () -> { });
    }

    /** How many of the first {@code size} bytes of this version of the file are cached. */
    public long cachedBytes(String fileKey, String version, long size) {
        long cached = 0;
        for (long index = 0; index * pageSize < size; index++) {
            int length = store.length(new PageId(fileKey, version, index, pageSize));
            if (length > 0) {
                cached += Math.min(length, size - index * pageSize);
            }
        }
        return cached;
    }

    /**
     * How many pages of the first {@code size} bytes of this version of the file each tier holds,
     * by tier name nearest first, every tier listed (a page promoted to memory counts in both).
     */
    public Map<String, Long> cachedPagesByTier(String fileKey, String version, long size) {
        Map<String, Long> pages = new LinkedHashMap<>();
        store.tiers().forEach(tier -> pages.put(tier, 0L));
        for (long index = 0; index * pageSize < size; index++) {
            for (String tier : store.tiersHolding(new PageId(fileKey, version, index, pageSize))) {
                pages.merge(tier, 1L, Long::sum);
            }
        }
        return pages;
    }

    /** Waits for queued fills (bounded), then closes the store; pages on disk stay. */
    @Override
    public void close() {
        if (loader != null) {
            loader.close();
        }
        try {
            if (ownedPool != null) {
                ownedPool.shutdown();
                if (!ownedPool.awaitTermination(10, TimeUnit.SECONDS)) {
                    log.warn("page cache fills still running after 10 s at close; their pages are dropped");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.close();
        }
    }
}
