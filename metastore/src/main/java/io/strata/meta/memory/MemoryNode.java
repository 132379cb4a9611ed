package io.strata.meta.memory;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.Names;

import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One inode of the memory engine, mutable under the store's write lock: its attributes and
 * everything keyed by it (children, names, xattrs, symlink target), so deleting the node deletes
 * them all.
 */
final class MemoryNode {
    final long ino;
    final InodeType type;
    int mode;
    int uid;
    int gid;
    long atimeNs;
    long mtimeNs;
    long ctimeNs;
    int nlink;
    long size;
    final long rdev;
    long parent;
    String name;
    String ufsVersion;
    long syncedNs;
    final String symlinkTarget;
    /** A directory's entries by name, so readdir pages in name order; null for other types. */
    final NavigableMap<String, Dentry> children;
    /** Every name of this inode, smallest first: where the primary link moves when it is removed. */
    final NavigableSet<Link> links = new TreeSet<>();
    final NavigableMap<String, byte[]> xattrs = new TreeMap<>();

    MemoryNode(Inode inode, String symlinkTarget) {
        this.ino = inode.ino();
        this.type = inode.type();
        this.mode = inode.mode();
        this.uid = inode.uid();
        this.gid = inode.gid();
        this.atimeNs = inode.atimeNs();
        this.mtimeNs = inode.mtimeNs();
        this.ctimeNs = inode.ctimeNs();
        this.nlink = inode.nlink();
        this.size = inode.size();
        this.rdev = inode.rdev();
        this.parent = inode.parent();
        this.name = inode.name();
        this.ufsVersion = inode.ufsVersion();
        this.syncedNs = inode.syncedNs();
        this.symlinkTarget = symlinkTarget;
        this.children = inode.isDirectory() ? new TreeMap<>(Names.ORDER) : null;
    }

    boolean isDirectory() {
        return type == InodeType.DIRECTORY;
    }

    boolean isPrimaryLink(long dir, String entryName) {
        return parent == dir && name.equals(entryName);
    }

    /** A directory's mtime and ctime move when an entry is added or removed. */
    void touch(long nowNs) {
        mtimeNs = nowNs;
        ctimeNs = nowNs;
    }

    Inode toInode() {
        return new Inode(ino, type, mode, uid, gid, atimeNs, mtimeNs, ctimeNs, nlink, size, rdev, parent, name,
                ufsVersion, syncedNs);
    }

    /** One name of an inode, ordered by parent then name. */
    record Link(long parent, String name) implements Comparable<Link> {
        @Override
        public int compareTo(Link other) {
            int byParent = Long.compare(parent, other.parent);
            return byParent != 0 ? byParent : Names.ORDER.compare(name, other.name);
        }
    }
}
