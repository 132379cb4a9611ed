package io.strata.meta.dump;

import io.strata.meta.Dentry;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One batch of a load for {@link LoadTarget#write}: new inodes (each written once, with its
 * symlink target and xattrs) and names. A name may refer to an inode of another batch, and a
 * directory's entries may come before the directory's own inode.
 */
public final class LoadBatch {
    private final List<DumpedInode> inodes = new ArrayList<>();
    private final List<Name> names = new ArrayList<>();
    private int weight;

    /** The inodes to create, with their dumped numbers, attributes and primary links. */
    public List<DumpedInode> inodes() {
        return inodes;
    }

    /** The entries to create. */
    public List<Name> names() {
        return names;
    }

    void add(DumpedInode inode) {
        inodes.add(requireNonNull(inode, "inode is null"));
        weight += 1 + inode.xattrs().size();
    }

    void add(Dentry dentry, boolean hardLinked) {
        names.add(new Name(dentry, hardLinked));
        weight++;
    }

    /** Roughly how many rows the batch writes. */
    int weight() {
        return weight;
    }

    boolean isEmpty() {
        return inodes.isEmpty() && names.isEmpty();
    }

    /**
     * An entry to create.
     *
     * @param hardLinked whether its inode has (as far as the load knows yet) more than one name:
     *     an engine that indexes the names of such inodes (Redis's l&lt;ino&gt;) adds this one;
     *     {@link LoadTarget.LinkFix}es at the end complete the picture
     */
    public record Name(Dentry dentry, boolean hardLinked) {}
}
