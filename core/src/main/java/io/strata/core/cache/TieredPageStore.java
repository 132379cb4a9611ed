package io.strata.core.cache;

import io.strata.core.concurrent.DaemonThreads;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * A memory tier in front of a disk tier, inclusive: a page stored goes to both, so a page the
 * memory tier evicts is still on disk; but a whole page of a stream ({@link Reread#LATER}) goes to
 * disk only, unless the disk declines it. Such a page is read again, if at all, from the kernel's
 * cache of the mounted file (with direct_io, from disk until it is read twice and promoted); in a
 * memory tier 16 times smaller than a 1 GiB object it would only push out the pages that random
 * reads and small files come back to; copying it there was 3 % of the daemon's CPU samples in a
 * cold read of that object (docs/PERFORMANCE.md, nineteenth round). A page that streams keep
 * reading is promoted like any other. A memory hit does no disk I/O. A disk page whose reads since
 * it was stored (or last promoted) add up to {@link #PROMOTE_AFTER_PAGES} times its size is hot: it
 * is copied up into memory in the background (on the fill pool, dropped if that is busy), so its
 * next reads are memory hits.
 *
 * <p>Counting bytes rather than hits makes a promotion pay for itself: it copies a whole page, so
 * a page read twice in full is promoted at once, and one read 4 KiB at a time only after 512 such
 * reads. Counting hits, 4 KiB random reads over a working set larger than the memory tier
 * promoted a 1 MiB page for nearly every read, each evicting another (13 % of the daemon's CPU).
 * The count starts again at each promotion: a page the memory tier evicted earns its next one
 * anew. Left running, every disk read of a once-hot page promoted it again: 128 KiB random reads
 * over a 1 GiB object (16x the default memory tier) copied a page per read, 76 % of the daemon's
 * allocations, and the busy pool's rejections another 11 %.
 *
 * <p>And those reads must come within the memory tier's residence: the time the page next in line
 * for eviction has gone unread, about how long a page promoted now would stay ({@link
 * MemoryPageStore#residenceNanos}). A page read as much as that in less time would be read again
 * from memory before it left; one read more slowly would be evicted first, its copy wasted. Random
 * reads spread evenly over a working set 16 times the tier were still promoting 345 pages a second,
 * turning the tier over five times a second for a hit rate it has anyway (the share of the working
 * set it holds): with the residence as the window, promotions slow until the tier keeps pages as
 * long as they take to get hot, and a small hot set is promoted as before.
 *
 * <p>A short page, a small file's or the end of a larger one, goes to memory first and settles
 * to disk behind its reader: {@link #SETTLE_AFTER} later, on a thread of this store's, or sooner
 * when the memory tier evicts it (handed down from under its lock) or the store closes. Written
 * as it was fetched, each small file's page file (its creation, write and rename) was a tenth of
 * the daemon's CPU in a cold read of 200 small files, on two cores that were the bound; settled
 * after the read, that read went from 308 to 342 files/s on average and the daemon's CPU from 0.97
 * to 0.83 s (docs/PERFORMANCE.md, thirty-third round).
 * The cost is a window: a daemon killed with SIGKILL loses the short pages of its last {@link
 * #SETTLE_AFTER}, which the next mount fetches again. No page is ever torn or wrong: what reaches
 * disk is written as any other page is.
 */
public final class TieredPageStore implements PageStore {
    /** Page sizes read from disk after which a page is copied into memory. */
    static final int PROMOTE_AFTER_PAGES = 2;
    /**
     * How long a short page stays in memory alone: longer than a burst of small files takes to
     * read (200 in ~0.7 s on two cores), short enough that a killed daemon loses little.
     */
    static final Duration SETTLE_AFTER = Duration.ofSeconds(2);
    /** How long close waits for the settle under way: one page file's write, with room for a slow disk. */
    private static final Duration SETTLE_AT_CLOSE = Duration.ofSeconds(10);

    private final MemoryPageStore memory;
    private final DiskPageStore disk;
    private final Executor promotions;
    private final CacheMetrics.Tier memoryMeters;
    private final ConcurrentHashMap<PageId, Boolean> promoting = new ConcurrentHashMap<>();
    /** The window a disk page's reads must come within to be hot; asked only once they add up. */
    private final LongSupplier residence;
    /** Short pages only memory holds, each with how it will be read again: one writer takes each off to disk. */
    private final Map<PageId, Reread> memoryOnly = new ConcurrentHashMap<>();
    private final long settleAfterNanos;
    private final ScheduledThreadPoolExecutor settler;
    /**
     * The settles' copy of a page, reused: direct, so that the disk tier writes it where it is. One
     * settle runs at a time under this store's {@link #settling} lock (the settler's thread, and
     * close, or a put whose settle could not be scheduled, on theirs).
     */
    private ByteBuffer settleBuffer;
    private final Object settling = new Object();

    /** @param promotions where promotions run: the fill pool, or a direct executor in tests */
    public TieredPageStore(MemoryPageStore memory, DiskPageStore disk, Executor promotions, CacheMetrics metrics) {
        this(memory, disk, promotions, metrics, SETTLE_AFTER);
    }

    /** @param settleAfter how long a short page stays in memory alone (tests shorten or lengthen it) */
    TieredPageStore(MemoryPageStore memory, DiskPageStore disk, Executor promotions, CacheMetrics metrics,
                    Duration settleAfter) {
        this.memory = requireNonNull(memory, "memory is null");
        this.residence = memory::residenceNanos;
        this.disk = requireNonNull(disk, "disk is null");
        this.promotions = requireNonNull(promotions, "promotions is null");
        this.memoryMeters = metrics.tier("memory");
        this.settleAfterNanos = settleAfter.toNanos();
        this.settler = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("strata-cache-settle"));
        // At close the waiting settles are dropped (close settles their pages itself) and the one under
        // way finishes: an interrupt would close its page file's channel mid-write.
        settler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        memory.handDownTo(new MemoryPageStore.HandDown() {
            @Override
            public boolean wants(PageId id) {
                return memoryOnly.containsKey(id);
            }

            @Override
            public void evicted(PageId id, ByteBuffer bytes) {
                Reread reread = memoryOnly.remove(id);
                if (reread != null) {
                    disk.put(id, bytes, reread);
                }
            }
        });
    }

    public MemoryPageStore memory() {
        return memory;
    }

    public DiskPageStore disk() {
        return disk;
    }

    @Override
    public int read(PageId id, int pageOffset, ByteBuffer dst) {
        return read(id, pageOffset, dst, Reread.LATER);
    }

    @Override
    public int read(PageId id, int pageOffset, ByteBuffer dst, Reread reread) {
        int n = memory.read(id, pageOffset, dst);
        if (n >= 0) {
            return n;
        }
        n = disk.read(id, pageOffset, dst, reread);
        if (n >= 0 && disk.takeHot(id, heat(id), residence)) {
            promote(id);
        }
        return n;
    }

    /**
     * A page in the memory tier is in no file there, so it is read instead (null); one only on disk
     * is lent, and promoted as a read of it would be.
     */
    @Override
    public PageRegion region(PageId id, int pageOffset, int length, Reread reread) {
        if (memory.length(id) >= 0) {
            return null;
        }
        PageRegion region = disk.region(id, pageOffset, length, reread);
        if (region != null && disk.takeHot(id, heat(id), residence)) {
            promote(id);
        }
        return region;
    }

    private void promote(PageId id) {
        if (id.pageSize() != memory.pageSize() || promoting.putIfAbsent(id, Boolean.TRUE) != null) {
            return;
        }
        try {
            promotions.execute(() -> {
                try {
                    int length = disk.length(id);
                    if (length > 0 && memory.length(id) < 0
                            && memory.putFrom(id, length, slot -> disk.copy(id, slot))) {
                        memoryMeters.promotions.increment();
                    }
                } finally {
                    promoting.remove(id);
                }
            });
        } catch (RejectedExecutionException busy) {
            promoting.remove(id);
            // All but a page's worth of its heat stays: its next full read tries again. Made to earn
            // it all anew, a page of a file read in full each pass waited two more passes (a 2 GiB
            // file settled into the tier over four; docs/PERFORMANCE.md); kept whole, every read of
            // the page, 4 KiB ones too, would be refused again while the pool stays busy.
            disk.keepHot(id, heat(id) - id.pageSize());
        }
    }

    /** The bytes read from a disk page that make it hot. */
    private static long heat(PageId id) {
        return (long) PROMOTE_AFTER_PAGES * id.pageSize();
    }

    @Override
    public boolean put(PageId id, ByteBuffer data) {
        return put(id, data, Reread.SOON);
    }

    @Override
    public boolean put(PageId id, ByteBuffer data, Reread reread) {
        if (reread == Reread.LATER && data.remaining() == id.pageSize()) {
            // A whole page of a stream: memory only if the disk is full or unusable
            return disk.put(id, data, reread) || memory.put(id, data);
        }
        if (data.remaining() < id.pageSize() && disk.length(id) < 0) {
            return putShort(id, data, reread);
        }
        boolean inMemory = memory.put(id, data);
        boolean onDisk = disk.put(id, data, reread);
        return inMemory || onDisk;
    }

    /** A short page not on disk: into memory alone, to settle later; straight to disk if memory refuses it. */
    private boolean putShort(PageId id, ByteBuffer data, Reread reread) {
        memoryOnly.put(id, reread); // first: the memory tier may evict it before its put returns
        if (!memory.put(id, data)) {
            memoryOnly.remove(id);
            return disk.put(id, data, reread);
        }
        try {
            settler.schedule(() -> settle(id), settleAfterNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            settle(id);
        }
        return true;
    }

    /**
     * Writes a short page down to disk if memory still holds it alone. It is copied before it is
     * claimed: a page that memory is evicting meanwhile is claimed, and written, by the hand-down.
     * The copy goes to a buffer the settles share, not to a new array per page, which the disk tier
     * then copied again into its direct stage: with small files kept in memory until they settle,
     * the heap's young generation filled every ~310 small files written with the arrays, every ~550
     * without them (docs/PERFORMANCE.md, fiftieth round).
     */
    private void settle(PageId id) {
        Reread reread = memoryOnly.get(id);
        int length = reread == null ? -1 : memory.length(id);
        if (length < 0) {
            return; // handed down already, deleted, or being handed down now
        }
        synchronized (settling) {
            if (settleBuffer == null) {
                settleBuffer = ByteBuffer.allocateDirect(memory.pageSize()); // memory holds no longer page
            }
            ByteBuffer page = settleBuffer.clear().limit(length);
            if (memory.copy(id, page) == length && memoryOnly.remove(id, reread)) {
                disk.put(id, page.flip(), reread);
            }
        }
    }

    @Override
    public boolean accepting() {
        return memory.accepting() || disk.accepting();
    }

    @Override
    public int length(PageId id) {
        int n = memory.length(id);
        return n >= 0 ? n : disk.length(id);
    }

    @Override
    public void delete(PageId id) {
        memoryOnly.remove(id);
        memory.delete(id);
        disk.delete(id);
    }

    @Override
    public long usedBytes() {
        return memory.usedBytes() + disk.usedBytes();
    }

    @Override
    public List<String> tiers() {
        return List.of("memory", "disk");
    }

    @Override
    public List<String> tiersHolding(PageId id) {
        boolean inMemory = memory.length(id) >= 0;
        boolean onDisk = disk.length(id) >= 0;
        return inMemory && onDisk ? tiers() : inMemory ? memory.tiers() : onDisk ? disk.tiers() : List.of();
    }

    @Override
    public long pageCount() {
        return memory.pageCount() + disk.pageCount();
    }

    @Override
    public long capacityBytes() {
        return memory.capacityBytes() + disk.capacityBytes();
    }

    /** Settles every short page only memory holds first, so the next mount finds them on disk. */
    @Override
    public void close() {
        try {
            settler.shutdown();
            awaitSettler();
            List.copyOf(memoryOnly.keySet()).forEach(this::settle);
            memory.close();
        } finally {
            disk.close();
        }
    }

    /** Lets a settle under way finish its page, so none is written after the disk tier closes. */
    private void awaitSettler() {
        try {
            if (!settler.awaitTermination(SETTLE_AT_CLOSE.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("a short page's settle to disk did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return memory + " over " + disk;
    }
}
