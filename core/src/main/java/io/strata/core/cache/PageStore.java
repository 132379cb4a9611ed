package io.strata.core.cache;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Fixed-size pages of file data, kept in one tier (memory, disk directories) or several.
 *
 * <p>A page is immutable once stored: its id includes the content version, so new content is a
 * new page. A store never returns wrong data: a page it cannot read back whole and verified
 * (missing, short, failing its checksum) is a miss, and is dropped. It never throws for a cache
 * failure either: a tier that cannot store a page declines it ({@link #put} returns false), and
 * the caller reads from the under storage as if there were no cache.
 *
 * <p>Implementations are safe for concurrent use.
 */
public interface PageStore extends Closeable {
    /**
     * Copies the page's bytes from {@code pageOffset} into {@code dst}, as many as fit and the
     * page holds, advancing {@code dst}'s position.
     *
     * @return the number of bytes copied (0 when {@code pageOffset} is at or past the page's end),
     *     or -1 when the page is not here; on -1 {@code dst}'s position is unchanged
     */
    int read(PageId id, int pageOffset, ByteBuffer dst);

    /**
     * As {@link #read(PageId, int, ByteBuffer)}, for a reader that comes back to the page as
     * {@code reread} says: one that reads {@link Reread#SOON} jumps around and returns for the rest
     * of the page, so a store may bring the whole page nearer while it answers (the disk tier reads
     * a page file that has left the kernel's page cache back into it). By default, the plain read.
     */
    default int read(PageId id, int pageOffset, ByteBuffer dst, Reread reread) {
        return read(id, pageOffset, dst);
    }

    /**
     * Lends up to {@code length} of the page's bytes from {@code pageOffset} where they lie in a
     * page file, for a transport that hands file bytes to the kernel without copying them. Each
     * checksummed chunk they touch is known to be sound first: written by this store, or read and
     * checked as {@link #read} would. Counts as a read.
     *
     * @return the region (of length 0 when {@code pageOffset} is at or past the page's end), or
     *     null when the page is not here or not in a file (read it instead); close the region
     */
    default PageRegion region(PageId id, int pageOffset, int length, Reread reread) {
        return null;
    }

    /**
     * Stores a copy of {@code data}'s remaining bytes (at most the page size) as the page; leaves
     * {@code data}'s position alone. True if the page is here afterwards (stored now or before).
     */
    boolean put(PageId id, ByteBuffer data);

    /**
     * As {@link #put(PageId, ByteBuffer)}, with how soon the page is likely read again: a disk tier
     * writes a page read again {@link Reread#LATER} past the kernel's page cache. The two-argument
     * put stores a page as one read again {@link Reread#SOON}.
     */
    default boolean put(PageId id, ByteBuffer data, Reread reread) {
        return put(id, data);
    }

    /**
     * Whether a page put now could be stored: false while the store's directories are unusable or
     * its disks full. Readers then read just what they need from the under storage instead of
     * fetching whole pages only to drop them.
     */
    default boolean accepting() {
        return true;
    }

    /** The page's length in bytes if it is here, else -1. Does not count as an access. */
    int length(PageId id);

    /** The tiers of this store, nearest first, by the names {@link #tiersHolding} uses ("memory", "disk"). */
    List<String> tiers();

    /**
     * The tiers that hold the page, nearest first (a promoted page is in two); empty when none
     * does. Does not count as an access. For {@code strata info}'s pages per tier.
     */
    default List<String> tiersHolding(PageId id) {
        return length(id) >= 0 ? tiers() : List.of();
    }

    /** Drops the page if it is here. */
    void delete(PageId id);

    /** Bytes this store holds for its pages (for the disk tier: page files with their headers). */
    long usedBytes();

    /** Number of pages held. */
    long pageCount();

    /** The most bytes this store holds. */
    long capacityBytes();

    /** Releases memory, files and locks; pages on disk stay for the next open. */
    @Override
    void close();
}
