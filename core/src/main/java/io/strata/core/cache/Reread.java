package io.strata.core.cache;

/**
 * How soon a page being stored is likely to be read again from the page store, which tells a disk
 * tier whether the kernel's page cache should keep a copy of its file.
 */
public enum Reread {
    /**
     * Soon, and through the store: a page fetched for random reads, which come back to it (at the
     * file system's level too, with {@code O_DIRECT}, where only the store caches). Written through
     * the kernel's page cache, so those reads find it in memory.
     */
    SOON,
    /**
     * Later, if at all: a page fetched for a sequential stream or written by the application,
     * which the kernel's cache of the mounted file holds for rereads meanwhile. Written past the
     * page cache where the directory allows ({@code O_DIRECT}): on a cold read of a 1 GiB object,
     * copying it there cost more CPU than anything but the S3 client (docs/PERFORMANCE.md).
     */
    LATER
}
