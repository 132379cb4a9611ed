package io.strata.core.cache;

import io.strata.core.concurrent.DaemonThreads;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Loads the block around a random read into the page store in the background, as Alluxio caches
 * a whole block asynchronously after a partial read: a reader that jumps around a file pays one
 * fetch per page it touches first, and every later read near it hits the cache. A 4 KiB random
 * reader over a file of a few GiB so has the whole file cached after a few hundred reads, where
 * page by page it would need one fetch per MiB of the file.
 *
 * <p>A block is {@code blockSize} bytes on the file's grid of blocks. Each block of a version is
 * loaded at most once while it is remembered ({@link #RECENT} blocks, for {@link #RECENT_FOR});
 * loads run on {@link #THREADS} threads, each reading its block front to back through the page
 * reader (a page that a reader is fetching is not fetched twice), announcing the missing pages of
 * its next {@link #HINT_AHEAD} bytes as it goes, so the readahead engine fetches them ahead in large
 * parts. Loads wait for the store, never the readers; when {@link #QUEUE} blocks are waiting, a new
 * one is dropped, and a load stops at the first page the store declines (full) or the source
 * refuses (the file was closed).
 */
final class BlockLoader implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BlockLoader.class);
    static final int THREADS = 2;
    static final int QUEUE = 64;
    static final int RECENT = 16_384;
    static final Duration RECENT_FOR = Duration.ofMinutes(10);
    /**
     * How far ahead of a load its missing pages are announced ({@link PageSource#willNeed}): they
     * are then fetched in parts that belong to no reader's stream. Left to be found as a stream, a load
     * beside a few random readers lost its readahead whenever their reads (each a new stream
     * until proven otherwise) pushed its stream out between two of its pages, and fetched pages a
     * second time.
     */
    static final long HINT_AHEAD = 16L << 20;

    /** A block of one version of one file; equals and hashCode written out, as {@link PageId}'s. */
    private record BlockId(String fileKey, String version, long index) {
        @Override
        public boolean equals(Object o) {
            return o instanceof BlockId other && index == other.index && fileKey.equals(other.fileKey)
                    && version.equals(other.version);
        }

        @Override
        public int hashCode() {
            return (fileKey.hashCode() * 31 + version.hashCode()) * 31 + Long.hashCode(index);
        }
    }

    private final PageReader reader;
    private final PageStore store;
    private final int pageSize;
    private final long blockSize;
    private final CacheMetrics.Tier meters;
    private final ThreadPoolExecutor pool;
    /** Blocks loaded or queued lately: each is loaded once. */
    private final Cache<BlockId, Boolean> recent = Caffeine.newBuilder()
            .maximumSize(RECENT)
            .expireAfterWrite(RECENT_FOR)
            .executor(Runnable::run)
            .build();

    BlockLoader(PageReader reader, PageStore store, int pageSize, long blockSize, CacheMetrics metrics) {
        if (blockSize < pageSize || blockSize % pageSize != 0) {
            throw new IllegalArgumentException("block size " + blockSize + " is not a multiple of the page size "
                    + pageSize);
        }
        this.reader = requireNonNull(reader, "reader is null");
        this.store = requireNonNull(store, "store is null");
        this.pageSize = pageSize;
        this.blockSize = blockSize;
        this.meters = metrics.tier("all");
        this.pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                DaemonThreads.numbered("strata-cache-load"), new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * A read missed page {@code missed} of version {@code version} of {@code fileKey}, a file of
     * {@code size} bytes: queues the load of its block, unless that block was loaded lately.
     */
    void missed(PageSource source, PageId missed, long size) {
        long index = missed.offset() / blockSize;
        BlockId block = new BlockId(missed.fileKey(), missed.version(), index);
        if (recent.asMap().putIfAbsent(block, Boolean.TRUE) != null) {
            return;
        }
        long start = index * blockSize;
        long end = Math.min(size, start + blockSize);
        try {
            pool.execute(() -> load(source, block, start, end));
        } catch (RejectedExecutionException busy) {
            recent.invalidate(block); // not loaded: a later miss may queue it again
            meters.loadsDropped.increment();
        }
    }

    private void load(PageSource source, BlockId block, long start, long end) {
        try {
            PageId first = new PageId(block.fileKey(), block.version(), start / pageSize, pageSize);
            long hinted = start;
            for (long offset = start; offset < end; offset += pageSize) {
                if (hinted < end && offset + HINT_AHEAD / 2 >= hinted) {
                    long from = Math.max(offset, hinted);
                    hinted = Math.min(end, offset + HINT_AHEAD);
                    reader.announce(source, first.at(from), hinted);
                }
                if (!store.accepting() || !reader.load(source, first.at(offset))) {
                    return;
                }
            }
            meters.blocksLoaded.increment();
        } catch (IOException | RuntimeException e) {
            // The file was closed or replaced, or the storage failed: readers see that on their own.
            log.debug("loading block {} of {} stopped: {}", block.index(), block.fileKey(), e.toString());
        }
    }

    /** Blocks waiting or loading; for tests. */
    int pending() {
        return pool.getQueue().size() + pool.getActiveCount();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
