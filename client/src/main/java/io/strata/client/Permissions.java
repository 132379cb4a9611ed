package io.strata.client;

import io.strata.meta.Inode;

/**
 * The classic owner/group/other permission check of access(2).
 *
 * <p>The kernel makes the same check itself under {@code default_permissions} (the mount's
 * default); this one serves frontends without a kernel in front (Hadoop) and explicit access(2)
 * calls. Only the caller's primary group is considered.
 */
final class Permissions {
    private Permissions() {}

    static boolean allows(Inode inode, int mask, Caller caller) {
        int wanted = mask & 7;
        if (wanted == 0) {
            return true;
        }
        int mode = inode.mode();
        if (caller.uid() == 0) {
            // root may read and write anything, and execute what anyone may execute
            return (wanted & 1) == 0 || inode.isDirectory() || (mode & 0111) != 0;
        }
        int bits;
        if (caller.uid() == inode.uid()) {
            bits = (mode >> 6) & 7;
        } else if (caller.gid() == inode.gid()) {
            bits = (mode >> 3) & 7;
        } else {
            bits = mode & 7;
        }
        return (bits & wanted) == wanted;
    }
}
