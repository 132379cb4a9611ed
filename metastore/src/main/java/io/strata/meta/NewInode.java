package io.strata.meta;

import static java.util.Objects.requireNonNull;

/**
 * What a new inode starts as. Times are all set to {@code timeNs} unless {@code mtimeNs} says
 * otherwise (an entry synced from the under storage keeps the storage's mtime).
 *
 * @param symlinkTarget the target for a symlink; null otherwise
 * @param ufsVersion the under-storage version for entries synced from it; null otherwise
 */
public record NewInode(InodeType type, int mode, int uid, int gid, long rdev, long size, long timeNs, long mtimeNs,
                       String symlinkTarget, String ufsVersion) {
    public NewInode {
        requireNonNull(type, "type is null");
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: 0" + Integer.toOctalString(mode));
        }
        if ((type == InodeType.SYMLINK) != (symlinkTarget != null)) {
            throw new IllegalArgumentException("a symlink, and only a symlink, has a target");
        }
    }

    public static NewInode directory(int mode, int uid, int gid, long nowNs) {
        return new NewInode(InodeType.DIRECTORY, mode, uid, gid, 0, 0, nowNs, nowNs, null, null);
    }

    public static NewInode file(int mode, int uid, int gid, long nowNs) {
        return new NewInode(InodeType.FILE, mode, uid, gid, 0, 0, nowNs, nowNs, null, null);
    }

    public static NewInode symlink(String target, int uid, int gid, long nowNs) {
        // st_size of a symlink is the length of its target in bytes
        long size = target.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        return new NewInode(InodeType.SYMLINK, 0777, uid, gid, 0, size, nowNs, nowNs, target, null);
    }
}
