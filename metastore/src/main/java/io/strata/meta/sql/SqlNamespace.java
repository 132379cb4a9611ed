package io.strata.meta.sql;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore.ListedEntry;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The namespace changes of {@link SqlMetaStore} (create, link, unlink, rmdir, rename, merge),
 * each run by the caller inside one write transaction, so a failed check anywhere rolls back
 * whatever was already written.
 */
final class SqlNamespace {
    /** Deeper than any path the kernel can pass; reaching it means the parent chain has a cycle. */
    private static final int MAX_DEPTH = 1 << 16;

    private final SqlRows rows;

    SqlNamespace(SqlRows rows) {
        this.rows = requireNonNull(rows, "rows is null");
    }

    Inode create(long parent, String name, NewInode spec) throws IOException, SQLException {
        rows.requireDirectory(parent);
        if (rows.dentry(parent, name).isPresent()) {
            throw FsException.exists(describe(parent, name));
        }
        long syncedNs = spec.type() == InodeType.DIRECTORY ? spec.timeNs() : Inode.NEVER_SYNCED;
        Inode inode = addInode(parent, name, spec, syncedNs);
        rows.touch(parent, spec.timeNs());
        return inode;
    }

    Inode link(long ino, long parent, String name, long nowNs) throws IOException, SQLException {
        Inode inode = rows.lockInode(ino);
        rows.requireDirectory(parent);
        // link(2) reports a taken name before looking at what the source is
        if (rows.dentry(parent, name).isPresent()) {
            throw FsException.exists(describe(parent, name));
        }
        if (inode.isDirectory()) {
            throw new FsException(FsError.EPERM, "hard link to directory " + ino);
        }
        rows.insertDentry(new Dentry(parent, name, ino, inode.type()));
        rows.addNlink(ino, 1);
        rows.setCtime(ino, nowNs);
        rows.touch(parent, nowNs);
        return rows.requireInode(ino);
    }

    RemovedLink unlink(long parent, String name, long nowNs) throws IOException, SQLException {
        rows.requireDirectory(parent);
        Dentry dentry = rows.requireDentry(parent, name);
        if (dentry.type() == InodeType.DIRECTORY) {
            throw new FsException(FsError.EISDIR, describe(parent, name));
        }
        RemovedLink removed = removeLink(dentry, nowNs);
        rows.touch(parent, nowNs);
        return removed;
    }

    Inode rmdir(long parent, String name, long nowNs) throws IOException, SQLException {
        rows.requireDirectory(parent);
        Dentry dentry = rows.requireDentry(parent, name);
        checkRemovableDirectory(dentry);
        Inode removed = removeDirectory(dentry, nowNs);
        rows.touch(parent, nowNs);
        return removed;
    }

    Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException, SQLException {
        rows.requireDirectory(srcParent);
        rows.requireDirectory(dstParent);
        Dentry source = rows.requireDentry(srcParent, srcName);
        Inode moved = rows.lockInode(source.ino());
        Optional<Dentry> target = rows.dentry(dstParent, dstName);
        if (target.isPresent() && target.get().ino() == moved.ino()) {
            // two names of one inode (or the same name): rename(2) does nothing
            return new Renamed(moved, false, Optional.empty());
        }
        if (moved.isDirectory()) {
            checkNotIntoOwnSubtree(moved.ino(), dstParent);
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
                replaced = Optional.of(new RemovedLink(removeDirectory(existing, nowNs), true));
            } else {
                replaced = Optional.of(removeLink(existing, nowNs));
            }
        }
        rows.deleteDentry(srcParent, srcName);
        rows.insertDentry(new Dentry(dstParent, dstName, moved.ino(), moved.type()));
        boolean wasPrimary = moved.parent() == srcParent && moved.name().equals(srcName);
        if (wasPrimary) {
            rows.setPrimaryLink(moved.ino(), dstParent, dstName);
        }
        if (moved.isDirectory() && srcParent != dstParent) {
            rows.addNlink(srcParent, -1);
            rows.addNlink(dstParent, 1);
        }
        rows.setCtime(moved.ino(), nowNs);
        rows.touch(srcParent, nowNs);
        rows.touch(dstParent, nowNs);
        return new Renamed(rows.requireInode(moved.ino()), wasPrimary, replaced);
    }

    int mergeListing(long dir, List<ListedEntry> entries) throws IOException, SQLException {
        rows.requireDirectory(dir);
        int added = 0;
        for (ListedEntry entry : entries) {
            if (rows.dentry(dir, entry.name()).isEmpty()) {
                // a directory found in the listing has a listing of its own still to merge
                addInode(dir, entry.name(), entry.spec(), Inode.NEVER_SYNCED);
                added++;
            }
        }
        return added;
    }

    // --- changes shared by several operations

    private Inode addInode(long parent, String name, NewInode spec, long syncedNs) throws IOException, SQLException {
        Inode inode = Inode.fromSpec(rows.allocateInode(), parent, name, spec, syncedNs);
        rows.insertInode(inode, spec.symlinkTarget());
        rows.insertDentry(new Dentry(parent, name, inode.ino(), inode.type()));
        if (inode.isDirectory()) {
            rows.addNlink(parent, 1);
        }
        rows.addCounter(SqlRows.INODES, 1);
        if (inode.isFile()) {
            rows.addCounter(SqlRows.USED_BYTES, inode.size());
        }
        return inode;
    }

    /** Removes a non-directory name: one link fewer, the inode deleted at none, the primary link moved. */
    private RemovedLink removeLink(Dentry dentry, long nowNs) throws IOException, SQLException {
        Inode inode = rows.lockInode(dentry.ino());
        rows.deleteDentry(dentry.parent(), dentry.name());
        boolean wasPrimary = inode.parent() == dentry.parent() && inode.name().equals(dentry.name());
        Optional<Dentry> next = inode.nlink() > 1 ? rows.firstLink(inode.ino()) : Optional.empty();
        if (next.isEmpty()) {
            rows.deleteInode(inode);
            return new RemovedLink(gone(inode, nowNs), wasPrimary);
        }
        rows.addNlink(inode.ino(), -1);
        rows.setCtime(inode.ino(), nowNs);
        if (wasPrimary) {
            rows.setPrimaryLink(inode.ino(), next.get().parent(), next.get().name());
        }
        return new RemovedLink(rows.requireInode(inode.ino()), wasPrimary);
    }

    private Inode removeDirectory(Dentry dentry, long nowNs) throws IOException, SQLException {
        Inode inode = rows.lockInode(dentry.ino());
        rows.deleteDentry(dentry.parent(), dentry.name());
        rows.addNlink(dentry.parent(), -1);
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

    /** EINVAL if {@code dir} is {@code ancestor} or below it: walk up through the parents' primary links. */
    private void checkNotIntoOwnSubtree(long ancestor, long dir) throws IOException, SQLException {
        long current = dir;
        for (int depth = 0; depth < MAX_DEPTH; depth++) {
            if (current == ancestor) {
                throw new FsException(FsError.EINVAL, "cannot move directory " + ancestor + " into its own subtree");
            }
            if (current == Inode.ROOT) {
                return;
            }
            current = rows.requireInode(current).parent();
        }
        throw new IOException("corrupt metastore: directory " + dir + " is more than " + MAX_DEPTH
                + " levels below the root");
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
