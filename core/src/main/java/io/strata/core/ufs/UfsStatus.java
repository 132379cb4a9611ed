package io.strata.core.ufs;

import static java.util.Objects.requireNonNull;

/**
 * What the under storage knows about one entry.
 *
 * @param name the entry's last path component
 * @param directory whether it is a directory (or an object prefix)
 * @param size bytes, 0 for directories
 * @param mtimeNs modification time, nanoseconds since the epoch
 * @param mode permission bits the storage reports, or -1 where it has none (object stores)
 * @param uid owner the storage reports, or -1
 * @param gid group the storage reports, or -1
 * @param version the content version: an ETag, or size and mtime for a local file; null for directories
 */
public record UfsStatus(String name, boolean directory, long size, long mtimeNs, int mode, int uid, int gid,
                        String version) {
    public UfsStatus {
        requireNonNull(name, "name is null");
        if (size < 0) {
            throw new IllegalArgumentException("size is negative: " + size);
        }
    }
}
