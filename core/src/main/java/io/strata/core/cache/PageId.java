package io.strata.core.cache;

import static java.util.Objects.requireNonNull;

/**
 * The identity of one cached page: which file, which content of it, which page, at which page size.
 *
 * <p>The version (an ETag, or size and mtime for a local file) is part of the identity, so a file
 * changed behind the mount is looked up under a new id and never served from its old pages; the
 * page size is too, so pages cut at another size are never read as this one.
 *
 * @param fileKey the file, stable across renames: the volume's id and the inode number
 * @param version the content version the page was read from
 * @param index the page number: the page holds bytes {@code [index * pageSize, (index + 1) * pageSize)}
 * @param pageSize the page size the file was cut at
 */
public record PageId(String fileKey, String version, long index, int pageSize) {
    public PageId {
        requireNonNull(fileKey, "fileKey is null");
        requireNonNull(version, "version is null");
        if (index < 0) {
            throw new IllegalArgumentException("page index is negative: " + index);
        }
        if (pageSize <= 0) {
            throw new IllegalArgumentException("page size must be positive: " + pageSize);
        }
    }

    /**
     * Written out rather than the record's own: those are bootstrapped through method handles
     * ({@code ObjectMethods}) at their first call in each JVM, which the AOT cache does not keep, and
     * a fresh mount's first page reads waited on that (30 ms of a cold small-file read's CPU).
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof PageId other && index == other.index && pageSize == other.pageSize
                && fileKey.equals(other.fileKey) && version.equals(other.version);
    }

    @Override
    public int hashCode() {
        int hash = fileKey.hashCode();
        hash = hash * 31 + version.hashCode();
        hash = hash * 31 + Long.hashCode(index);
        return hash * 31 + pageSize;
    }

    /** The file offset of the page's first byte. */
    public long offset() {
        return index * pageSize;
    }

    /** The page of the same file and version holding byte {@code offset}. */
    public PageId at(long offset) {
        return new PageId(fileKey, version, offset / pageSize, pageSize);
    }
}
