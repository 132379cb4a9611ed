package io.strata.meta.jdbc;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore.ListedEntry;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.jdbc.Transactions.Retry;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The namespace changes of {@link JdbcMetaStore} (create, link, unlink, rmdir, rename, merge),
 * each one attempt of a write transaction.
 *
 * <p>Each change first reads which inodes it will touch (the parents, and the inodes the names
 * refer to), then locks all of them with one {@code SELECT ... FOR UPDATE} in inode order, then
 * reads the entries again under the locks. Every writer of a directory's entries holds that
 * directory's lock, and every writer of an inode's names holds that inode's lock, so what it
 * reads now stays true until commit; if an entry now names an inode it did not lock, it throws
 * {@link Retry} and the transaction starts over. Where the transaction holds the whole database
 * from its start (SQLite), the first reads were already under the lock: they are not repeated.
 */
final class Namespace {
    private final Rows rows;
    /** Whether the transaction locked the whole database at its start. */
    private final boolean locksDatabase;

    Namespace(Rows rows, boolean locksDatabase) {
        this.rows = rows;
        this.locksDatabase = locksDatabase;
    }

    Inode create(long parent, String name, NewInode spec) throws IOException, SQLException {
        requireDirectory(rows.lockInodes(parent), parent);
        if (rows.dentry(parent, name).isPresent()) {
            throw FsException.exists(describe(parent, name));
        }
        long syncedNs = spec.type() == InodeType.DIRECTORY ? spec.timeNs() : Inode.NEVER_SYNCED;
        Inode inode = rows.createInode(parent, name, spec, syncedNs);
        rows.touch(parent, inode.isDirectory() ? 1 : 0, spec.timeNs());
        rows.addUsage(1, inode.isFile() ? inode.size() : 0);
        return inode;
    }

    Inode link(long ino, long parent, String name, long nowNs) throws IOException, SQLException {
        Map<Long, Inode> locked = rows.lockInodes(ino, parent);
        Inode inode = locked.get(ino);
        if (inode == null) {
            throw FsException.notFound("inode " + ino);
        }
        requireDirectory(locked, parent);
        // link(2) reports a taken name before looking at what the source is
        if (rows.dentry(parent, name).isPresent()) {
            throw FsException.exists(describe(parent, name));
        }
        if (inode.isDirectory()) {
            throw new FsException(FsError.EPERM, "hard link to directory " + ino);
        }
        rows.insertDentry(new Dentry(parent, name, ino, inode.type()));
        rows.changeLinks(ino, 1, nowNs);
        rows.touch(parent, 0, nowNs);
        return rows.requireInode(ino);
    }

    RemovedLink unlink(long parent, String name, long nowNs) throws IOException, SQLException {
        Optional<Dentry> guess = rows.dentry(parent, name);
        Map<Long, Inode> locked = rows.lockInodes(parent, guess.map(Dentry::ino).orElse(parent));
        requireDirectory(locked, parent);
        Dentry dentry = underLock(guess, parent, name).orElseThrow(() -> FsException.notFound(describe(parent, name)));
        if (dentry.type() == InodeType.DIRECTORY) {
            throw new FsException(FsError.EISDIR, describe(parent, name));
        }
        RemovedLink removed = removeLink(dentry, requireLocked(locked, dentry), nowNs);
        rows.touch(parent, 0, nowNs);
        return removed;
    }

    Inode rmdir(long parent, String name, long nowNs) throws IOException, SQLException {
        Optional<Dentry> guess = rows.dentry(parent, name);
        Map<Long, Inode> locked = rows.lockInodes(parent, guess.map(Dentry::ino).orElse(parent));
        requireDirectory(locked, parent);
        Dentry dentry = underLock(guess, parent, name).orElseThrow(() -> FsException.notFound(describe(parent, name)));
        Inode inode = requireLocked(locked, dentry);
        checkRemovableDirectory(dentry);
        Inode removed = removeDirectory(dentry, inode, nowNs);
        rows.touch(parent, -1, nowNs);
        return removed;
    }

    Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException, SQLException {
        Optional<Dentry> sourceGuess = rows.dentry(srcParent, srcName);
        Optional<Dentry> targetGuess = rows.dentry(dstParent, dstName);
        boolean movesDirectory = srcParent != dstParent
                && sourceGuess.map(d -> d.type() == InodeType.DIRECTORY).orElse(false);
        if (movesDirectory) {
            rows.lockDirectoryMoves(); // before any row lock: the one lock taken ahead of the inode order
        }
        Map<Long, Inode> locked = rows.lockInodes(srcParent, dstParent,
                sourceGuess.map(Dentry::ino).orElse(srcParent), targetGuess.map(Dentry::ino).orElse(dstParent));
        requireDirectory(locked, srcParent);
        requireDirectory(locked, dstParent);
        Dentry source = underLock(sourceGuess, srcParent, srcName)
                .orElseThrow(() -> FsException.notFound(describe(srcParent, srcName)));
        Optional<Dentry> target = underLock(targetGuess, dstParent, dstName);
        Inode moved = requireLocked(locked, source);
        Optional<Inode> replacedInode = target.isPresent()
                ? Optional.of(requireLocked(locked, target.get())) : Optional.empty();
        if (target.isPresent() && target.get().ino() == moved.ino()) {
            // two names of one inode (or the same name): rename(2) does nothing
            return new Renamed(moved, false, Optional.empty());
        }
        if (moved.isDirectory() && srcParent != dstParent) {
            if (!movesDirectory) {
                throw new Retry("'" + srcName + "' in directory " + srcParent + " became a directory");
            }
            if (rows.isAncestor(moved.ino(), dstParent)) {
                throw new FsException(FsError.EINVAL, "cannot move directory " + moved.ino()
                        + " into its own subtree");
            }
        }
        Optional<RemovedLink> replaced = Optional.empty();
        if (target.isPresent()) {
            Dentry existing = target.get();
            if (moved.isDirectory() && existing.type() != InodeType.DIRECTORY) {
                throw new FsException(FsError.ENOTDIR, "cannot replace non-directory " + describe(dstParent, dstName)
                        + " with a directory");
            }
            if (!moved.isDirectory() && existing.type() == InodeType.DIRECTORY) {
                throw new FsException(FsError.EISDIR, "cannot replace directory " + describe(dstParent, dstName)
                        + " with a non-directory");
            }
            if (existing.type() == InodeType.DIRECTORY) {
                checkRemovableDirectory(existing);
                replaced = Optional.of(new RemovedLink(removeDirectory(existing, replacedInode.get(), nowNs), true));
                rows.addNlink(dstParent, -1);
            } else {
                replaced = Optional.of(removeLink(existing, replacedInode.get(), nowNs));
            }
        }
        rows.deleteDentry(srcParent, srcName);
        rows.insertDentry(new Dentry(dstParent, dstName, moved.ino(), moved.type()));
        boolean wasPrimary = moved.parent() == srcParent && moved.name().equals(srcName);
        if (wasPrimary) {
            rows.setPrimaryLink(moved.ino(), dstParent, dstName);
        }
        int nlinkMoved = moved.isDirectory() && srcParent != dstParent ? 1 : 0;
        rows.setCtime(moved.ino(), nowNs);
        rows.touch(srcParent, -nlinkMoved, nowNs);
        rows.touch(dstParent, nlinkMoved, nowNs);
        return new Renamed(rows.requireInode(moved.ino()), wasPrimary, replaced);
    }

    int mergeListing(long dir, List<ListedEntry> entries) throws IOException, SQLException {
        requireDirectory(rows.lockInodes(dir), dir);
        Map<String, ListedEntry> byName = new LinkedHashMap<>();
        for (ListedEntry entry : entries) {
            byName.putIfAbsent(entry.name(), entry); // a name listed twice: the first one is merged
        }
        if (byName.isEmpty()) {
            return 0;
        }
        Set<String> present = rows.presentNames(dir, List.copyOf(byName.keySet()));
        List<ListedEntry> missing = byName.values().stream().filter(e -> !present.contains(e.name())).toList();
        if (missing.isEmpty()) {
            return 0;
        }
        long[] inos = rows.allocateInodes(missing.size());
        List<Inode> inodes = new ArrayList<>(missing.size());
        List<String> targets = new ArrayList<>(missing.size());
        int directories = 0;
        long bytes = 0;
        for (int i = 0; i < missing.size(); i++) {
            NewInode spec = missing.get(i).spec();
            // a directory found in the listing has a listing of its own still to merge
            Inode inode = Inode.fromSpec(inos[i], dir, missing.get(i).name(), spec, Inode.NEVER_SYNCED);
            inodes.add(inode);
            targets.add(spec.symlinkTarget());
            directories += inode.isDirectory() ? 1 : 0;
            bytes += inode.isFile() ? inode.size() : 0;
        }
        rows.insertInodes(inodes, targets);
        if (directories > 0) {
            rows.addNlink(dir, directories); // merging what the storage has is no user change: no times
        }
        rows.addUsage(missing.size(), bytes);
        return missing.size();
    }

    // --- changes shared by several operations

    /** Removes a non-directory name: one link fewer, the inode deleted at none, the primary link moved. */
    private RemovedLink removeLink(Dentry dentry, Inode inode, long nowNs) throws IOException, SQLException {
        rows.deleteDentry(dentry.parent(), dentry.name());
        boolean wasPrimary = inode.parent() == dentry.parent() && inode.name().equals(dentry.name());
        Optional<Dentry> next = inode.nlink() > 1 ? rows.firstLink(inode.ino()) : Optional.empty();
        if (next.isEmpty()) {
            rows.deleteInode(inode);
            return new RemovedLink(gone(inode, nowNs), wasPrimary);
        }
        rows.changeLinks(inode.ino(), -1, nowNs);
        if (wasPrimary) {
            rows.setPrimaryLink(inode.ino(), next.get().parent(), next.get().name());
        }
        return new RemovedLink(rows.requireInode(inode.ino()), wasPrimary);
    }

    /** Removes an empty directory's entry and inode; the caller adjusts the parent's nlink. */
    private Inode removeDirectory(Dentry dentry, Inode inode, long nowNs) throws SQLException {
        rows.deleteDentry(dentry.parent(), dentry.name());
        rows.deleteInode(inode);
        return gone(inode, nowNs);
    }

    // --- checks

    private void checkRemovableDirectory(Dentry dentry) throws IOException, SQLException {
        if (dentry.type() != InodeType.DIRECTORY) {
            throw new FsException(FsError.ENOTDIR, describe(dentry.parent(), dentry.name()));
        }
        if (rows.hasEntries(dentry.ino())) {
            throw new FsException(FsError.ENOTEMPTY, describe(dentry.parent(), dentry.name()));
        }
    }

    private static Inode requireDirectory(Map<Long, Inode> locked, long ino) throws FsException {
        Inode inode = locked.get(ino);
        if (inode == null) {
            throw FsException.notFound("inode " + ino);
        }
        if (!inode.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "inode " + ino);
        }
        return inode;
    }

    /** The entry as it is under the locks: read again, unless the first read already was. */
    private Optional<Dentry> underLock(Optional<Dentry> firstRead, long parent, String name) throws SQLException {
        return locksDatabase ? firstRead : rows.dentry(parent, name);
    }

    /**
     * The locked inode an entry names; {@link Retry} if the entry changed since the inodes were
     * locked, or ENOENT where nothing could change it (the entry names a missing inode).
     */
    private Inode requireLocked(Map<Long, Inode> locked, Dentry dentry) throws FsException {
        Inode inode = locked.get(dentry.ino());
        if (inode == null) {
            if (locksDatabase) {
                throw FsException.notFound("inode " + dentry.ino());
            }
            throw new Retry(describe(dentry.parent(), dentry.name()) + " changed while it was being locked");
        }
        return inode;
    }

    /** The inode as it was when its last link went: nlink 0, ctime now. */
    private static Inode gone(Inode inode, long nowNs) {
        return new Inode(inode.ino(), inode.type(), inode.mode(), inode.uid(), inode.gid(), inode.atimeNs(),
                inode.mtimeNs(), nowNs, 0, inode.size(), inode.rdev(), inode.parent(), inode.name(),
                inode.ufsVersion(), inode.syncedNs());
    }

    private static String describe(long parent, String name) {
        return "'" + name + "' in directory " + parent;
    }
}
