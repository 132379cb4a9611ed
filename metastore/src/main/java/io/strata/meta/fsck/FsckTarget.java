package io.strata.meta.fsck;

import io.strata.meta.Inode;

import java.io.IOException;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What {@code strata fsck} needs from an engine beyond its dump source: a scan of every inode
 * (the dump only reaches inodes a name leads to) and raw repairs that set what the checks found
 * wrong. Obtained from {@link io.strata.meta.MetaStore#fsckTarget()} and closed by the check.
 *
 * <p>Each repair is one atomic change and touches only what it names: none of them moves the
 * counters, sets a time or follows a link, because fsck recomputes those values itself and sets
 * them with their own repair. They are meant for a volume no client is changing.
 */
public interface FsckTarget extends AutoCloseable {
    /**
     * Up to {@code limit} inodes numbered above {@code after}, in number order: every inode the
     * engine holds, whether or not a name leads to it.
     */
    List<Inode> inodes(long after, int limit) throws IOException;

    /**
     * Sets an inode's link count. {@code names} are all its names when it is not a directory, for
     * engines that index an inode's names (where the primary link moves to) to rebuild that index;
     * empty for a directory.
     */
    void setLinks(long ino, int nlink, List<Link> names) throws IOException;

    /** Makes {@code (parent, name)}, one of the inode's names, its primary link. */
    void setPrimaryLink(long ino, Link primary) throws IOException;

    /** Removes the name {@code name} in {@code parent}, whose inode does not exist. */
    void removeEntry(long parent, String name) throws IOException;

    /**
     * Removes an inode no name leads to: its attributes, its xattrs, and for a directory its
     * entries. The under storage is not the engine's, and stays as it is.
     */
    void removeInode(long ino) throws IOException;

    /** Sets the volume's inode count and used bytes (statfs), which fsck recomputed. */
    void setCounters(long inodes, long usedBytes) throws IOException;

    /**
     * What the engine's own check of its storage finds damaged (a database file's pages and
     * indexes), a line each: empty when it is sound, or when the engine has no such check.
     */
    default List<String> storageDamage() throws IOException {
        return List.of();
    }

    /**
     * Rebuilds the storage's indexes from the rows they index: damage confined to indexes (rows
     * missing from one, entries left over) is gone after it.
     */
    default void rebuildIndexes() throws IOException {
    }

    @Override
    void close() throws IOException;

    /** One name of an inode: the entry {@code name} of directory {@code parent}. */
    record Link(long parent, String name) {
        public Link {
            requireNonNull(name, "name is null");
        }
    }
}
