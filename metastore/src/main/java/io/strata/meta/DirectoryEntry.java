package io.strata.meta;

import static java.util.Objects.requireNonNull;

/** A directory entry with its inode's attributes, as a listing that shows them (READDIRPLUS, ls -l) needs. */
public record DirectoryEntry(Dentry dentry, Inode inode) {
    public DirectoryEntry {
        requireNonNull(dentry, "dentry is null");
        requireNonNull(inode, "inode is null");
        if (dentry.ino() != inode.ino()) {
            throw new IllegalArgumentException("entry " + dentry + " names inode " + dentry.ino() + ", not " + inode.ino());
        }
    }
}
