package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicies;
import io.strata.core.cache.evict.EvictionPolicy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The disk tier: pages as checksummed files in one or more cache directories ({@link CacheDir}),
 * each with its own quota and eviction order.
 *
 * <p>A page's home directory is chosen by a hash of its file and page number, so a file's pages
 * spread over the directories; when the home directory is unusable the page goes to the next one
 * that is. Lookups try the home directory first, then the others.
 *
 * <p>The directories are locked when the store opens, so of two stores given one directory the
 * first opened keeps it; their indexes are restored on a thread of their own: a restore reads
 * the header of every page a directory holds (~0.5 s for 1,200 pages after the kernel's caches
 * were dropped), which a mount or a Hadoop job that only lists should not wait for. The first
 * call that needs a directory waits for the restore instead; {@link #capacityBytes} does not.
 */
public final class DiskPageStore implements PageStore {
    private final List<CacheDir> opened;
    private final CompletableFuture<Void> restored = new CompletableFuture<>();
    private final List<Dir> given;
    private final long capacity;
    private final CacheMetrics.Tier meters;

    /** One cache directory and its quota in bytes. */
    public record Dir(Path path, long quotaBytes) {
        public Dir {
            requireNonNull(path, "path is null");
            if (quotaBytes <= 0) {
                throw new IllegalArgumentException("quota must be positive: " + quotaBytes);
            }
        }
    }

    /**
     * Opens the directories, creating them as needed and restoring the pages they hold; a
     * directory that cannot be used is reported once and bypassed (see {@link CacheDir}).
     */
    public DiskPageStore(List<Dir> dirs, double freeSpaceRatio, String eviction, CacheMetrics metrics,
                         DiskSpace space, LongSupplier nanoClock) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("no cache directory");
        }
        this.given = List.copyOf(dirs);
        List<EvictionPolicy> policies = given.stream()
                .map(dir -> EvictionPolicies.create(eviction, dir.quotaBytes())).toList();
        requireNonNull(space, "space is null");
        requireNonNull(nanoClock, "nanoClock is null");
        this.capacity = given.stream().mapToLong(Dir::quotaBytes).sum();
        this.meters = metrics.tier("disk");
        List<CacheDir> locked = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            locked.add(new CacheDir(given.get(i).path(), given.get(i).quotaBytes(), freeSpaceRatio,
                    policies.get(i), meters, space, nanoClock));
        }
        this.opened = List.copyOf(locked);
        Thread restore = new Thread(() -> {
            try {
                opened.forEach(CacheDir::restore);
                restored.complete(null);
            } catch (RuntimeException | Error e) {
                restored.completeExceptionally(e);
            }
        }, "strata-cache-restore");
        restore.setDaemon(true);
        restore.start();
        metrics.gauges("disk", this);
    }

    /** The directories, once restored (waits for their restore the first time). */
    List<CacheDir> dirs() {
        try {
            restored.join();
            return opened;
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    private int home(PageId id, int count) {
        int hash = id.fileKey().hashCode() * 31 + Long.hashCode(id.index());
        return Math.floorMod(hash ^ (hash >>> 16), count);
    }

    @Override
    public int read(PageId id, int pageOffset, ByteBuffer dst) {
        return read(id, pageOffset, dst, Reread.LATER);
    }

    @Override
    public int read(PageId id, int pageOffset, ByteBuffer dst, Reread reread) {
        List<CacheDir> dirs = dirs();
        int home = home(id, dirs.size());
        for (int i = 0; i < dirs.size(); i++) {
            CacheDir dir = dirs.get((home + i) % dirs.size());
            if (i > 0 && !dir.contains(id)) {
                continue;
            }
            int n = dir.read(id, pageOffset, dst, reread);
            if (n >= 0) {
                meters.hits.increment();
                meters.bytesRead.increment(n);
                return n;
            }
        }
        meters.misses.increment();
        return -1;
    }

    @Override
    public PageRegion region(PageId id, int pageOffset, int length, Reread reread) {
        List<CacheDir> dirs = dirs();
        int home = home(id, dirs.size());
        for (int i = 0; i < dirs.size(); i++) {
            CacheDir dir = dirs.get((home + i) % dirs.size());
            if (i > 0 && !dir.contains(id)) {
                continue;
            }
            PageRegion region = dir.region(id, pageOffset, length, reread);
            if (region != null) {
                meters.hits.increment();
                meters.bytesRead.increment(region.length());
                return region;
            }
        }
        return null; // not a miss yet: the read that follows counts it
    }

    /**
     * The whole page into {@code dst} for a promotion to the memory tier: not a reader's read, so
     * it neither counts towards the page's heat nor as a hit. The length, or -1 if it is not here.
     */
    int copy(PageId id, ByteBuffer dst) {
        for (CacheDir dir : dirs()) {
            int n = dir.copy(id, dst);
            if (n >= 0) {
                return n;
            }
        }
        return -1;
    }

    /**
     * True, once, when the bytes read from the page since it was stored (or since this last
     * looked) reach {@code threshold} within {@code withinNs} nanoseconds; false if it is not here.
     * Each time the count reaches the threshold it starts again, hot or not.
     */
    boolean takeHot(PageId id, long threshold, LongSupplier withinNs) {
        for (CacheDir dir : dirs()) {
            if (dir.takeHot(id, threshold, withinNs)) {
                return true;
            }
        }
        return false;
    }

    /** See {@link CacheDir#keepHot}. */
    void keepHot(PageId id, long bytes) {
        for (CacheDir dir : dirs()) {
            if (dir.keepHot(id, bytes)) {
                return;
            }
        }
    }

    @Override
    public boolean put(PageId id, ByteBuffer data) {
        return put(id, data, Reread.SOON);
    }

    @Override
    public boolean put(PageId id, ByteBuffer data, Reread reread) {
        List<CacheDir> dirs = dirs();
        int home = home(id, dirs.size());
        for (int i = 0; i < dirs.size(); i++) {
            CacheDir dir = dirs.get((home + i) % dirs.size());
            if (i == 0 || dir.usable()) {
                if (dir.put(id, data, reread)) {
                    return true;
                }
                if (dir.usable()) {
                    return false; // usable but full: a page does not wander to another directory's quota
                }
            }
        }
        return false;
    }

    @Override
    public int length(PageId id) {
        for (CacheDir dir : dirs()) {
            int n = dir.length(id);
            if (n >= 0) {
                return n;
            }
        }
        return -1;
    }

    @Override
    public void delete(PageId id) {
        dirs().forEach(dir -> dir.delete(id));
    }

    @Override
    public long usedBytes() {
        return dirs().stream().mapToLong(CacheDir::usedBytes).sum();
    }

    @Override
    public List<String> tiers() {
        return List.of("disk");
    }

    @Override
    public long pageCount() {
        return dirs().stream().mapToLong(CacheDir::pageCount).sum();
    }

    @Override
    public long capacityBytes() {
        return capacity;
    }

    /** Whether any directory takes pages now. */
    public boolean usable() {
        return dirs().stream().anyMatch(CacheDir::usable);
    }

    @Override
    public boolean accepting() {
        for (CacheDir dir : dirs()) {
            if (dir.accepting()) {
                return true;
            }
        }
        return false;
    }

    /** Page id → file length, over every directory. */
    Map<PageId, Long> snapshot() {
        Map<PageId, Long> all = new java.util.HashMap<>();
        dirs().forEach(dir -> all.putAll(dir.snapshot()));
        return all;
    }

    @Override
    public void close() {
        restored.handle((done, failure) -> null).join();
        opened.forEach(CacheDir::close);
    }

    @Override
    public String toString() {
        return "disk tier " + given.stream().map(dir -> "cache directory " + dir.path().toAbsolutePath().normalize())
                .toList();
    }
}
