package io.strata.client;

import io.strata.core.buffer.LentBytes;
import io.strata.core.buffer.LentBytesSink;
import io.strata.core.cache.PageCache;
import io.strata.core.cache.PageId;
import io.strata.core.cache.PageRegions;
import io.strata.core.cache.PageSource;
import io.strata.core.ufs.UfsFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The volume's page cache as the open files use it: which key a file's pages have, reading
 * through the cache, and the memory budget for pages written through the mount
 * ({@code cache_on_write}) waiting for their file's flush. Disabled when the mount has no
 * cache tier.
 *
 * <p>A file's pages are keyed by the volume's id (a random id kept in the metastore, so a new
 * metastore never meets pages of an old one whose inode numbers meant other files) and the inode
 * number (stable across renames, shared by hard links), plus the content version.
 */
final class DataCache implements AutoCloseable {
    /** Bytes of written pages held for cache_on_write across the volume's open files. */
    static final long WRITE_BUDGET = 64L << 20;

    private final PageCache cache;
    private final String volumeId;
    private final AtomicLong staged = new AtomicLong();

    DataCache(PageCache cache, String volumeId) {
        this.cache = cache;
        this.volumeId = volumeId;
    }

    static DataCache disabled() {
        return new DataCache(null, "");
    }

    boolean enabled() {
        return cache != null;
    }

    PageCache pageCache() {
        return cache;
    }

    String fileKey(long ino) {
        return volumeId + "/" + ino;
    }

    /**
     * Reads version {@code version} of inode {@code ino}, {@code size} bytes long, through the
     * cache, fetching misses from {@code file}; {@code sink} (if any) may take fetched bytes in lent
     * memory instead of a copy.
     */
    int read(UfsFile file, long ino, String version, long size, ByteBuffer dst, long offset, LentBytesSink sink)
            throws IOException {
        return cache.read(pages(file), fileKey(ino), version, size, dst, offset, sink);
    }

    /**
     * {@code length} bytes of version {@code version} of inode {@code ino} at {@code offset}, all
     * within the file, lent as regions of page files when the cache holds every page on disk now;
     * null otherwise.
     */
    PageRegions regions(long ino, String version, long offset, int length) {
        return cache.regions(fileKey(ino), version, offset, length);
    }

    /** The file as the cache's page source: its positional reads, and its whole-page reads (views where it has them). */
    private static PageSource pages(UfsFile file) {
        return new PageSource() {
            @Override
            public int read(ByteBuffer dst, long offset) throws IOException {
                return file.read(dst, offset);
            }

            @Override
            public LentBytes readRange(long offset, int length) throws IOException {
                return file.readRange(offset, length);
            }

            @Override
            public void willNeed(long offset, long length) {
                file.willNeed(offset, length);
            }
        };
    }

    /** Pages written through the mount for one open file, or null when cache_on_write is off. */
    WrittenPages newWrittenPages() {
        return cache != null && cache.cacheOnWrite() ? new WrittenPages(cache.pageSize(), staged, WRITE_BUDGET) : null;
    }

    /** Caches a written page of the file's content at {@code version} (in the background). */
    void offerWritten(long ino, String version, long index, ByteBuffer page) {
        cache.offer(new PageId(fileKey(ino), version, index, cache.pageSize()), page);
    }

    /** Bytes of the first {@code size} bytes of version {@code version} of inode {@code ino} in the cache. */
    long cachedBytes(long ino, String version, long size) {
        return cache == null || version == null ? 0 : cache.cachedBytes(fileKey(ino), version, size);
    }

    /**
     * Pages of the first {@code size} bytes of version {@code version} of inode {@code ino} per
     * cache tier ("memory", "disk"); empty without a page cache.
     */
    Map<String, Long> cachedPagesByTier(long ino, String version, long size) {
        return cache == null || version == null ? Map.of() : cache.cachedPagesByTier(fileKey(ino), version, size);
    }

    /** The page size of the cache, or 0 without one. */
    int pageSize() {
        return cache == null ? 0 : cache.pageSize();
    }

    @Override
    public void close() {
        if (cache != null) {
            cache.close();
        }
    }
}
