package io.strata.core.cache;

import io.strata.core.buffer.LentBytes;
import io.strata.core.buffer.LentBytesSink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Reads file ranges through the page store: splits a read at page boundaries, serves each page
 * from the store when it is there, and fetches the whole, aligned page from the under storage
 * when it is not.
 *
 * <p>A fetched page is handed to the fill pool to be stored, and the reader copies its part at
 * once without waiting. Until the fill is done the page stays in the in-flight table, so a read
 * of the same page in the meantime (another thread, or the next kernel request of a sequential
 * read) copies from the fetched bytes rather than fetching again; concurrent misses on one page
 * likewise join the one fetch. When the fill pool's queue is full the reader stores its page
 * itself (counted), so a cold read is cached whole however far the fills fell behind; pages
 * offered in the background (written data) are dropped instead (counted).
 *
 * <p>A fetched page may be memory the S3 client lends ({@link LentBytes}): the reader holds it
 * while it copies (or while its {@link LentBytesSink} takes a hold of its own instead), then hands
 * it to the fill, which lets go once the page is stored and out of the in-flight table. A reader
 * that joins a fetch takes a hold of its own before copying, and reads the store instead when
 * every holder has let go already (the page is stored, or was dropped).
 */
final class PageReader {
    /** How much of a short page's rest is asked for before a whole page is allocated for it. */
    private static final int PROBE_BYTES = 8 << 10;
    private final PageStore store;
    private final int pageSize;
    private final Executor fills;
    private final CacheMetrics.Tier ufs;
    private final CacheMetrics.Tier all;
    private final ConcurrentMap<PageId, CompletableFuture<LentBytes>> inFlight = new ConcurrentHashMap<>();

    PageReader(PageStore store, int pageSize, Executor fills, CacheMetrics metrics) {
        this.store = requireNonNull(store, "store is null");
        this.pageSize = pageSize;
        this.fills = requireNonNull(fills, "fills is null");
        this.ufs = metrics.tier("ufs");
        this.all = metrics.tier("all");
    }

    /**
     * Reads up to {@code dst.remaining()} bytes of version {@code version} of {@code fileKey} at
     * {@code offset}; returns the count, short only at the end of the file (0 there).
     */
    int read(PageSource source, String fileKey, String version, ByteBuffer dst, long offset) throws IOException {
        return read(source, fileKey, version, dst, offset, Reread.SOON, null, null);
    }

    /**
     * As {@link #read(PageSource, String, String, ByteBuffer, long)}; the pages fetched are stored as
     * read again {@code reread}, {@code onMiss} (if any) hears of each page missed, and {@code sink}
     * (if any) may take the bytes of fetched pages in lent memory instead of a copy of them.
     */
    int read(PageSource source, String fileKey, String version, ByteBuffer dst, long offset, Reread reread,
             Consumer<PageId> onMiss, LentBytesSink sink) throws IOException {
        int total = 0;
        long position = offset;
        long end = offset + dst.remaining();
        long hinted = offset; // the source has been told of the missing pages up to here
        while (dst.hasRemaining()) {
            long index = position / pageSize;
            int pageOffset = (int) (position % pageSize);
            int want = Math.min(dst.remaining(), pageSize - pageOffset);
            PageId id = new PageId(fileKey, version, index, pageSize);
            ByteBuffer window = dst.duplicate().limit(dst.position() + want);
            int n = store.read(id, pageOffset, window, reread);
            if (n < 0) {
                if (onMiss != null) {
                    onMiss.accept(id);
                }
                if (position >= hinted) {
                    hinted = hintMissingRun(source, id, end);
                }
                n = readMissing(source, id, pageOffset, window, reread, sink);
            }
            dst.position(dst.position() + n);
            total += n;
            position += n;
            if (n < want) {
                break; // the page ends here: end of file
            }
        }
        return total;
    }

    /**
     * {@code length} bytes of version {@code version} of {@code fileKey} at {@code offset} as
     * regions of page files, if the store can lend every page they touch now; null if not (then
     * read them). Short only at the end of the file.
     */
    PageRegions regions(String fileKey, String version, long offset, int length, Reread reread) {
        List<PageRegion> lent = new ArrayList<>(2);
        int total = 0;
        while (total < length) {
            long position = offset + total;
            int pageOffset = (int) (position % pageSize);
            int want = Math.min(length - total, pageSize - pageOffset);
            PageRegion region = store.region(new PageId(fileKey, version, position / pageSize, pageSize), pageOffset,
                    want, reread);
            if (region == null) {
                lent.forEach(PageRegion::close);
                return null;
            }
            lent.add(region);
            total += region.length();
            if (region.length() < want) {
                break; // the page ends here: end of file
            }
        }
        return new PageRegions(lent, total);
    }

    /**
     * Tells the source of the run of missing pages from {@code first} on, up to {@code end}, when
     * it is longer than one page: a large read (a Parquet column chunk through the Hadoop adapter)
     * then has all of its GETs under way at once, where page after page would wait for a readahead
     * window to grow. A page being fetched right now is not missing: its bytes are on their way to
     * the store, and hinting it would fetch it a second time (the source has let go of the bytes it
     * handed over) into a buffer nobody reads. Returns where the pages looked at end.
     */
    private long hintMissingRun(PageSource source, PageId first, long end) {
        long runStart = first.offset();
        while (runStart < end && inFlight.containsKey(first.at(runStart))) {
            runStart += pageSize;
        }
        long runEnd = missingRunEnd(first, runStart, end);
        if (runEnd - runStart > pageSize) {
            source.willNeed(runStart, runEnd - runStart);
        }
        return Math.max(runEnd, first.offset() + pageSize);
    }

    /**
     * Tells the source of each run of missing pages in {@code [first, end)} longer than one page:
     * a background load announcing the bytes it is about to read page by page.
     */
    void announce(PageSource source, PageId first, long end) {
        long runStart = first.offset();
        while (runStart < end) {
            long runEnd = missingRunEnd(first, runStart, end);
            if (runEnd - runStart > pageSize) {
                source.willNeed(runStart, Math.min(end, runEnd) - runStart);
            }
            runStart = runEnd + pageSize;
        }
    }

    /** Where the run of missing pages of {@code page}'s file that starts at {@code from} ends, up to {@code end}. */
    private long missingRunEnd(PageId page, long from, long end) {
        long runEnd = from;
        while (runEnd < end && missing(page.at(runEnd))) {
            runEnd += pageSize;
        }
        return runEnd;
    }

    /** Neither stored nor being fetched. */
    private boolean missing(PageId id) {
        return store.length(id) < 0 && !inFlight.containsKey(id);
    }

    private int readMissing(PageSource source, PageId id, int pageOffset, ByteBuffer dst, Reread reread,
                            LentBytesSink sink) throws IOException {
        while (true) {
            if (!store.accepting()) {
                CompletableFuture<LentBytes> running = inFlight.get(id);
                int n = running == null ? -1 : copyShared(await(running), pageOffset, dst, sink);
                return n >= 0 ? n : readAround(source, id, pageOffset, dst);
            }
            CompletableFuture<LentBytes> mine = new CompletableFuture<>();
            CompletableFuture<LentBytes> running = inFlight.putIfAbsent(id, mine);
            if (running != null) {
                ufs.sharedFetches.increment();
                int n = copyShared(await(running), pageOffset, dst, sink);
                if (n >= 0) {
                    return n;
                }
            } else if (store.length(id) >= 0) {
                // Stored between our miss and now (a fill that just finished): no fetch after all.
                inFlight.remove(id, mine);
                mine.complete(null);
            } else {
                LentBytes page;
                try {
                    page = fetch(source, id);
                } catch (IOException | RuntimeException e) {
                    inFlight.remove(id, mine);
                    mine.completeExceptionally(e);
                    throw e;
                }
                mine.complete(page);
                int n;
                try {
                    n = deliver(page, pageOffset, dst, sink);
                } finally {
                    fillOrStore(id, page, reread, () -> inFlight.remove(id, mine)); // the fill holds the page now
                }
                return n;
            }
            int n = store.read(id, pageOffset, dst, reread); // in the store now (or was, and is missed again)
            if (n >= 0) {
                return n;
            }
        }
    }

    /**
     * The page's bytes from {@code pageOffset} on, as many as {@code dst} has room for: taken by
     * {@code sink} (if any) as a holder of their own when they are outside the heap, else copied.
     */
    private static int deliver(LentBytes page, int pageOffset, ByteBuffer dst, LentBytesSink sink) {
        int n = Math.min(dst.remaining(), page.remaining() - pageOffset);
        if (n <= 0) {
            return 0;
        }
        if (sink != null && page.direct()) {
            LentBytes range = page.share(pageOffset, n);
            if (range != null) {
                if (sink.take(dst, range)) {
                    dst.position(dst.position() + n);
                    return n;
                }
                range.close();
            }
        }
        ByteBuffer bytes = page.bytes();
        dst.put(bytes.slice(bytes.position() + pageOffset, n));
        return n;
    }

    /**
     * Delivers from a page another reader fetched, under a hold of our own; -1 when there is none
     * (the fetch found the page stored) or its holders have all let go (it is stored by now, or
     * was dropped): read the store.
     */
    private static int copyShared(LentBytes page, int pageOffset, ByteBuffer dst, LentBytesSink sink) {
        if (page == null) {
            return -1;
        }
        try (LentBytes held = page.share()) {
            return held == null ? -1 : deliver(held, pageOffset, dst, sink);
        }
    }

    /** The store takes no pages now: reads just the requested bytes, as if there were no cache. */
    private int readAround(PageSource source, PageId id, int pageOffset, ByteBuffer dst) throws IOException {
        int start = dst.position();
        long offset = id.offset() + pageOffset;
        while (dst.hasRemaining()) {
            if (source.read(dst, offset + dst.position() - start) <= 0) {
                break;
            }
        }
        ufs.bypassedReads.increment();
        ufs.bytesFetched.increment(dst.position() - start);
        return dst.position() - start;
    }

    /**
     * The whole page from the source, held by the caller: as the source hands it over when that is
     * all of it (a view of the readahead's buffer, no copy), else completed into a page of its own.
     */
    private LentBytes fetch(PageSource source, PageId id) throws IOException {
        long offset = id.offset();
        LentBytes first = source.readRange(offset, pageSize);
        LentBytes page = first;
        if (first.hasRemaining() && first.remaining() < pageSize) {
            try {
                page = completed(source, offset, first);
            } catch (IOException | RuntimeException | Error e) {
                first.close();
                throw e;
            }
            if (page != first) {
                first.close();
            }
        }
        ufs.fetches.increment();
        ufs.bytesFetched.increment(page.remaining());
        return page;
    }

    /**
     * A page the source handed over short: most often the file ends there (a small file is one
     * short page), else the source gave less than asked. The rest is asked for before a page of
     * its own is allocated: a page-sized buffer, zeroed, for each small file read was a fifth of
     * the FUSE threads' CPU in cold reads of 128 KiB files. Returns {@code first} itself at the end
     * of the file, else a new page (the caller still holds {@code first}).
     */
    private LentBytes completed(PageSource source, long offset, LentBytes first) throws IOException {
        ByteBuffer probe = ByteBuffer.allocate(Math.min(PROBE_BYTES, pageSize - first.remaining()));
        if (source.read(probe, offset + first.remaining()) <= 0) {
            return first; // end of file (0: a source that makes no progress ends the page too)
        }
        ByteBuffer whole = ByteBuffer.allocate(pageSize).put(first.bytes()).put(probe.flip());
        while (whole.hasRemaining()) {
            if (source.read(whole, offset + whole.position()) <= 0) {
                break;
            }
        }
        return LentBytes.owned(whole.flip());
    }

    /**
     * Fetches page {@code id} and stores it before returning, unless it is stored or being
     * fetched already (background loads wait for the store; readers never do). Returns false
     * when the store declined the page (it is full).
     */
    boolean load(PageSource source, PageId id) throws IOException {
        if (store.length(id) >= 0) {
            return true;
        }
        CompletableFuture<LentBytes> mine = new CompletableFuture<>();
        if (inFlight.putIfAbsent(id, mine) != null) {
            return true; // a reader is fetching it and will store it
        }
        LentBytes page;
        try {
            page = fetch(source, id);
        } catch (IOException | RuntimeException e) {
            inFlight.remove(id, mine);
            mine.completeExceptionally(e);
            throw e;
        }
        mine.complete(page);
        try {
            if (!page.hasRemaining() || store.put(id, page.bytes())) {
                return true;
            }
            all.fillsDropped.increment();
            return false;
        } finally {
            inFlight.remove(id, mine);
            page.close();
        }
    }

    /**
     * Stores a page a reader fetched: in the background, or on the reader's own thread when the
     * fill pool is behind. Dropping it instead left a sixth of a cold sequential read uncached on 2
     * cores (fills fall behind while the JIT compiles), so the next read fetched it again; storing it
     * here slows the reader as much as the fill costs, as the pool's backlog drains.
     */
    private void fillOrStore(PageId id, LentBytes page, Reread reread, Runnable done) {
        Runnable store = () -> {
            try {
                if (page.hasRemaining()) {
                    this.store.put(id, page.bytes(), reread);
                }
            } finally {
                done.run();
                page.close(); // after done: a reader that finds the page in flight still gets a hold, or reads the store
            }
        };
        if (!page.hasRemaining()) {
            store.run();
            return;
        }
        try {
            fills.execute(store);
        } catch (RejectedExecutionException full) {
            ufs.inlineFills.increment();
            store.run();
        }
    }

    /** Stores a page in the background, as read again {@code reread}; {@code done} runs once it is stored or dropped. */
    void fill(PageId id, ByteBuffer page, Reread reread, Runnable done) {
        if (!page.hasRemaining()) {
            done.run();
            return;
        }
        try {
            fills.execute(() -> {
                try {
                    store.put(id, page.duplicate(), reread);
                } finally {
                    done.run();
                }
            });
        } catch (RejectedExecutionException full) {
            all.fillsDropped.increment();
            done.run();
        }
    }

    private static LentBytes await(CompletableFuture<LentBytes> fetch) throws IOException {
        try {
            return fetch.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof UncheckedIOException uio) {
                throw uio.getCause();
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("page fetch failed", cause);
        }
    }

    /** Fetches in flight or waiting for their fill; for tests. */
    int inFlight() {
        return inFlight.size();
    }
}
