package io.strata.meta.dump;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One inode with everything a dump holds about it: its attributes (including the primary link,
 * the UFS version and a directory's last sync), its symlink target and its extended attributes.
 *
 * @param symlinkTarget the target of a symlink, null for every other type
 * @param xattrs the extended attributes in name order ({@link io.strata.meta.Names#ORDER})
 */
public record DumpedInode(Inode inode, String symlinkTarget, List<Xattr> xattrs) {
    public DumpedInode {
        requireNonNull(inode, "inode is null");
        xattrs = List.copyOf(requireNonNull(xattrs, "xattrs is null"));
        if ((inode.type() == InodeType.SYMLINK) != (symlinkTarget != null)) {
            throw new IllegalArgumentException("inode " + inode.ino() + ": a symlink, and only a symlink, has a target");
        }
    }

    public long ino() {
        return inode.ino();
    }

    /** An extended attribute: the value is any bytes, the empty array included. */
    public record Xattr(String name, byte[] value) {
        public Xattr {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }
}
