package io.strata.meta;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.fsck.FsckTarget;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The namespace of one volume: inodes, dentries, xattrs, counters and settings.
 *
 * <p>This is the seam every engine (memory, SQLite, PostgreSQL, Redis) implements, and every
 * engine passes the same conformance suite. Each method is atomic: a multi-key change (create,
 * link, unlink, rename, rmdir) is applied whole or not at all, and concurrent callers in any
 * number of threads or processes see one of the two states. Errors a user can cause are
 * {@link FsException}s with the POSIX error that applies:
 *
 * <ul>
 *   <li>ENOENT: a named inode or entry does not exist;</li>
 *   <li>ENOTDIR: a parent is not a directory;</li>
 *   <li>EEXIST: a name to create is taken;</li>
 *   <li>EISDIR / ENOTDIR / ENOTEMPTY / EINVAL: as rename(2), unlink(2) and rmdir(2) define them;</li>
 *   <li>EPERM: a hard link to a directory.</li>
 * </ul>
 *
 * <p>Other failures (the engine is unreachable, a corrupt database) are plain {@link IOException}s.
 *
 * <p>Times are nanoseconds since the epoch, passed in by the caller so that an operation's
 * timestamps come from one clock. Names are single path components (no '/', not "." or "..");
 * the caller checks them.
 *
 * <p>Counters: {@link #stats()} reports the number of inodes and the sum of file sizes, kept up
 * to date by every change. The root directory (inode {@link Inode#ROOT}, mode 0755 owned by 0:0,
 * its own parent, name "") exists from the moment the store is opened.
 */
public interface MetaStore extends AutoCloseable {

    /** The inode's attributes. ENOENT if it does not exist. */
    Inode getInode(long ino) throws IOException;

    /** The entry {@code name} in directory {@code parent}, or empty. ENOENT / ENOTDIR for a bad parent. */
    Optional<Dentry> lookup(long parent, String name) throws IOException;

    /**
     * Up to {@code limit} entries of a directory, ordered by name in Unicode code point order (the
     * same as UTF-8 byte order, what SQL's binary collations give; see {@link Names#ORDER}),
     * starting after {@code after} (null: from the first). ENOENT / ENOTDIR for a bad directory.
     * Callers page through big directories; no engine loads a whole directory for one call.
     */
    List<Dentry> readdir(long dir, String after, int limit) throws IOException;

    /**
     * {@link #readdir} with each entry's inode: one read where the engine can join them, so a
     * listing that shows attributes costs no read per entry. An entry whose inode went away
     * between the two reads of an engine that cannot join is left out.
     */
    default List<DirectoryEntry> readdirPlus(long dir, String after, int limit) throws IOException {
        List<DirectoryEntry> entries = new ArrayList<>();
        for (Dentry dentry : readdir(dir, after, limit)) {
            try {
                entries.add(new DirectoryEntry(dentry, getInode(dentry.ino())));
            } catch (FsException e) {
                if (e.error() != FsError.ENOENT) {
                    throw e;
                }
            }
        }
        return entries;
    }

    /**
     * Whether {@link #readdirPlus} costs about one read, however many entries it returns (a join,
     * or an engine in this process), so that reading a page ahead of lookups pays off; false for
     * the default above, which reads once per entry (a round trip each on a remote engine).
     */
    default boolean readdirPlusIsOneRead() {
        return false;
    }

    /**
     * Creates {@code name} in {@code parent} as a new inode (any type), with nlink 1 (2 for a
     * directory, whose parent's nlink then grows by one), its primary link set to
     * {@code (parent, name)} and, for a directory, {@code syncedNs} set to {@code spec.timeNs()}
     * (a directory made here has nothing in the under storage to merge). The parent's mtime and
     * ctime become {@code spec.timeNs()}. EEXIST if the name is taken.
     */
    Inode create(long parent, String name, NewInode spec) throws IOException;

    /**
     * Adds the name {@code name} in {@code parent} for the existing inode {@code ino}: nlink grows
     * by one, the inode's ctime and the parent's mtime/ctime become {@code nowNs}. EPERM for a
     * directory, EEXIST if the name is taken.
     */
    Inode link(long ino, long parent, String name, long nowNs) throws IOException;

    /**
     * Removes a non-directory name. The inode's nlink drops by one and its ctime becomes
     * {@code nowNs}; at nlink 0 the inode and its xattrs are deleted. If the removed name was the
     * primary link and other names remain, the primary link moves to one of them. The parent's
     * mtime and ctime become {@code nowNs}. EISDIR for a directory.
     */
    RemovedLink unlink(long parent, String name, long nowNs) throws IOException;

    /**
     * Removes an empty directory: its inode and xattrs are deleted, the parent's nlink drops by
     * one and its mtime and ctime become {@code nowNs}. ENOTEMPTY if it has entries, ENOTDIR if
     * it is not a directory.
     */
    Inode rmdir(long parent, String name, long nowNs) throws IOException;

    /**
     * Moves {@code srcName} in {@code srcParent} to {@code dstName} in {@code dstParent}, as
     * rename(2): an existing target is replaced (a file by a non-directory; an empty directory by
     * a directory), the replaced name removed as by {@link #unlink} / {@link #rmdir}. If source
     * and target are links to the same inode, nothing changes. Errors: ENOENT (no source),
     * EISDIR (directory target for a non-directory), ENOTDIR (non-directory target for a
     * directory), ENOTEMPTY (non-empty target directory), EINVAL (a directory moved into its own
     * subtree). The moved inode's primary link follows the moved name when it was that name;
     * parents' mtime/ctime and nlink (for a moved directory) are updated.
     */
    Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs) throws IOException;

    /** Applies an attribute change (see {@link SetAttr}); keeps the used-bytes counter in step. */
    Inode setAttr(long ino, SetAttr change) throws IOException;

    /** A symlink's target. EINVAL if the inode is not a symlink. */
    String readlink(long ino) throws IOException;

    /** An extended attribute's value, or empty. ENOENT for a missing inode. */
    Optional<byte[]> getXattr(long ino, String name) throws IOException;

    /** Sets an extended attribute. EEXIST (mode CREATE, exists), ENODATA (mode REPLACE, missing). */
    void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException;

    /** Names of the inode's extended attributes, in name order. */
    List<String> listXattrs(long ino) throws IOException;

    /** Removes an extended attribute. ENODATA if missing. */
    void removeXattr(long ino, String name) throws IOException;

    /**
     * Merges a page of under-storage entries into a directory: each entry whose name is not yet
     * present is created (nlink and counters as {@link #create}, times from the entry); names
     * already present are left alone. Returns how many were added.
     */
    int mergeListing(long dir, List<ListedEntry> entries) throws IOException;

    /** Records that the directory's under-storage listing was merged completely at {@code syncedNs}. */
    void markSynced(long dir, long syncedNs) throws IOException;

    /** Number of inodes and bytes used. */
    VolumeStats stats() throws IOException;

    /** A volume setting (for example the under-storage URI the volume was formatted with). */
    Optional<String> getSetting(String key) throws IOException;

    /** Sets a volume setting. */
    void putSetting(String key, String value) throws IOException;

    /**
     * Batch reads of the whole namespace for {@code strata dump}, over one consistent view where
     * the engine has one. The caller closes it. Engines without dump support throw
     * UnsupportedOperationException.
     */
    default DumpSource dumpSource() throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot be dumped");
    }

    /**
     * Raw batch writes (inodes with their dumped numbers) for {@code strata load}. The caller
     * closes it. Engines without load support throw UnsupportedOperationException.
     */
    default LoadTarget loadTarget() throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot be loaded into");
    }

    /**
     * The inode scan and raw repairs of {@code strata fsck} (see {@link io.strata.meta.fsck.Fsck}).
     * The caller closes it. Engines without fsck support throw UnsupportedOperationException.
     */
    default FsckTarget fsckTarget() throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot be checked by fsck");
    }

    /**
     * Reads ahead what a process that has just opened the store is about to read, so that its
     * first requests do not wait for the disk: an engine kept in a local file brings the file (up
     * to a bound) into the OS page cache. Changes nothing; a server engine has nothing to do.
     */
    default void prefetch() throws IOException {
    }

    /** Releases connections and files. */
    @Override
    void close() throws IOException;

    /** An entry of an under-storage listing to merge: the name and what its inode starts as. */
    record ListedEntry(String name, NewInode spec) {}
}
