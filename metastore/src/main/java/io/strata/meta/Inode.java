package io.strata.meta;

import static java.util.Objects.requireNonNull;

/**
 * The attributes of one file system object, as the metastore holds them.
 *
 * <p>{@code parent} and {@code name} are the inode's <em>primary link</em>: the one dentry whose
 * path is where its data lives in the under storage. A directory has exactly one link; a file
 * with hard links keeps its data under one of them, and the metastore moves the primary link to
 * a surviving name when that one is removed.
 *
 * @param mode permission bits only ({@code 07777}); the type is {@link #type()}
 * @param ufsVersion the under-storage content version the metastore last recorded (ETag, or
 *     size and mtime), or null where none is known yet
 * @param syncedNs for a directory: when its under-storage listing was last merged, or
 *     {@link #NEVER_SYNCED}; unused for other types
 */
public record Inode(long ino, InodeType type, int mode, int uid, int gid, long atimeNs, long mtimeNs,
                    long ctimeNs, int nlink, long size, long rdev, long parent, String name, String ufsVersion,
                    long syncedNs) {
    public static final long ROOT = 1;
    public static final long NEVER_SYNCED = -1;

    public Inode {
        requireNonNull(type, "type is null");
        requireNonNull(name, "name is null");
        if (ino <= 0) {
            throw new IllegalArgumentException("ino must be positive: " + ino);
        }
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: 0" + Integer.toOctalString(mode));
        }
    }

    /**
     * A new inode made from {@code spec} and linked at {@code (parent, name)}: nlink 1 (2 for a
     * directory, for its "." entry), atime and ctime {@code spec.timeNs()}, mtime {@code spec.mtimeNs()}.
     */
    public static Inode fromSpec(long ino, long parent, String name, NewInode spec, long syncedNs) {
        int nlink = spec.type() == InodeType.DIRECTORY ? 2 : 1;
        return new Inode(ino, spec.type(), spec.mode(), spec.uid(), spec.gid(), spec.timeNs(), spec.mtimeNs(),
                spec.timeNs(), nlink, spec.size(), spec.rdev(), parent, name, spec.ufsVersion(), syncedNs);
    }

    public boolean isDirectory() {
        return type == InodeType.DIRECTORY;
    }

    public boolean isFile() {
        return type == InodeType.FILE;
    }

    /** The full {@code st_mode}: type bits and permission bits. */
    public int stMode() {
        return type.modeBits() | mode;
    }

    public Inode withSize(long newSize) {
        return new Inode(ino, type, mode, uid, gid, atimeNs, mtimeNs, ctimeNs, nlink, newSize, rdev, parent, name,
                ufsVersion, syncedNs);
    }

    public Inode withNlink(int newNlink) {
        return new Inode(ino, type, mode, uid, gid, atimeNs, mtimeNs, ctimeNs, newNlink, size, rdev, parent, name,
                ufsVersion, syncedNs);
    }

    public Inode withTimes(long newAtimeNs, long newMtimeNs, long newCtimeNs) {
        return new Inode(ino, type, mode, uid, gid, newAtimeNs, newMtimeNs, newCtimeNs, nlink, size, rdev, parent,
                name, ufsVersion, syncedNs);
    }
}
