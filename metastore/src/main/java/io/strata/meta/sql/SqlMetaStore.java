/*
 * Schema of the SQL metastore (format version 1, see MetaStores.FORMAT_VERSION). DDL: SqlSchema.
 *
 *   inodes    (ino BIGINT PK, type INTEGER, mode INTEGER, uid INTEGER, gid INTEGER,
 *              atime_ns BIGINT, mtime_ns BIGINT, ctime_ns BIGINT, nlink INTEGER, size BIGINT,
 *              rdev BIGINT, parent BIGINT, name NAME, ufs_version TEXT NULL, synced_ns BIGINT,
 *              target TEXT NULL)
 *      one row per inode. type: the S_IFMT bits of InodeType (0100000 file, 0040000 directory...);
 *      mode: permission bits only (07777). (parent, name): the primary link, (1, "") for the
 *      root. synced_ns: -1 = never synced. target: the symlink target, NULL for other types.
 *   dentries  (parent BIGINT, name NAME, ino BIGINT, type INTEGER, PK (parent, name))
 *      one row per name; type as in inodes, copied so readdir needs no join.
 *      Index dentries_by_ino (ino): the remaining names of an inode whose primary link is removed.
 *   xattrs    (ino BIGINT, name NAME, value BLOB, PK (ino, name))
 *   counters  (name VARCHAR PK, value BIGINT)
 *      next_inode: the next inode number to hand out (starts at 2); inodes: how many inode rows
 *      exist; used_bytes: the sum of size over FILE inodes.
 *   settings  (key VARCHAR PK, value TEXT)
 *      volume settings; format_version is written on format and checked on open.
 *
 * NAME is the dialect's byte-ordered text type (SQLite: TEXT COLLATE BINARY), so ORDER BY name
 * and readdir's "name > ?" agree. Times are nanoseconds since the epoch.
 */
package io.strata.meta.sql;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.fsck.FsckTarget;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.Objects.requireNonNull;

/**
 * The SQL {@link MetaStore} engine: every call is one transaction on a single JDBC connection.
 *
 * <p>One connection behind one lock keeps this simple and correct: SQLite has a single writer
 * anyway, and the transactions are short. Namespace changes live in {@link SqlNamespace}, row
 * access in {@link SqlRows}, what differs between databases in {@link SqlDialect}.
 */
public final class SqlMetaStore implements MetaStore {
    private final SqlDialect dialect;
    private final Connection connection;
    private final SqlRows rows;
    private final SqlNamespace namespace;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed;

    private SqlMetaStore(SqlDialect dialect, Connection connection) {
        this.dialect = dialect;
        this.connection = connection;
        this.rows = new SqlRows(connection, dialect);
        this.namespace = new SqlNamespace(rows);
    }

    /** Opens (creating it and its parent directories if missing) the SQLite database {@code file}. */
    public static SqlMetaStore openSqlite(Path file) throws IOException {
        return open(new SqliteDialect(file));
    }

    /** Connects through {@code dialect}, formatting an empty database as a new volume. */
    public static SqlMetaStore open(SqlDialect dialect) throws IOException {
        requireNonNull(dialect, "dialect is null");
        Connection connection;
        try {
            connection = dialect.connect();
        } catch (SQLException e) {
            throw new IOException("cannot open metastore " + dialect.describe() + ": " + e.getMessage(), e);
        }
        SqlMetaStore store = new SqlMetaStore(dialect, connection);
        try {
            long nowNs = System.currentTimeMillis() * 1_000_000L;
            store.write(rows -> {
                SqlSchema.prepare(connection, rows, dialect, nowNs);
                return null;
            });
        } catch (IOException | RuntimeException e) {
            try {
                store.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return store;
    }

    @Override
    public Inode getInode(long ino) throws IOException {
        return readStatement(rows -> rows.requireInode(ino));
    }

    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        requireNonNull(name, "name is null");
        return readStatement(rows -> {
            Optional<Dentry> found = rows.dentry(parent, name);
            if (found.isEmpty()) {
                rows.requireDirectory(parent); // ENOENT or ENOTDIR for the parent itself
            }
            return found;
        });
    }

    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        return read(rows -> {
            rows.requireDirectory(dir);
            return rows.dentries(dir, after, limit);
        });
    }

    /** One statement: the page joined with its inodes. */
    @Override
    public boolean readdirPlusIsOneRead() {
        return true;
    }

    @Override
    public List<DirectoryEntry> readdirPlus(long dir, String after, int limit) throws IOException {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        return readStatement(rows -> {
            List<DirectoryEntry> page = rows.entriesWithInodes(dir, after, limit);
            if (page.isEmpty()) {
                rows.requireDirectory(dir); // ENOENT or ENOTDIR rather than an empty listing
            }
            return page;
        });
    }

    @Override
    public Inode create(long parent, String name, NewInode spec) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(spec, "spec is null");
        return write(rows -> namespace.create(parent, name, spec));
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> namespace.link(ino, parent, name, nowNs));
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> namespace.unlink(parent, name, nowNs));
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> namespace.rmdir(parent, name, nowNs));
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        requireNonNull(srcName, "srcName is null");
        requireNonNull(dstName, "dstName is null");
        return write(rows -> namespace.rename(srcParent, srcName, dstParent, dstName, nowNs));
    }

    @Override
    public Inode setAttr(long ino, SetAttr change) throws IOException {
        requireNonNull(change, "change is null");
        if (change.mode() != null && (change.mode() & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: 0" + Integer.toOctalString(change.mode()));
        }
        if (change.size() != null && change.size() < 0) {
            throw new FsException(FsError.EINVAL, "negative size " + change.size());
        }
        return write(rows -> {
            Inode old = rows.lockInode(ino);
            Inode changed = new Inode(ino, old.type(), orElse(change.mode(), old.mode()),
                    orElse(change.uid(), old.uid()), orElse(change.gid(), old.gid()),
                    orElse(change.atimeNs(), old.atimeNs()), orElse(change.mtimeNs(), old.mtimeNs()),
                    change.ctimeNs(), old.nlink(), orElse(change.size(), old.size()), old.rdev(), old.parent(),
                    old.name(), orElse(change.ufsVersion(), old.ufsVersion()), old.syncedNs());
            rows.updateAttributes(changed);
            if (old.isFile() && changed.size() != old.size()) {
                rows.addCounter(SqlRows.USED_BYTES, changed.size() - old.size());
            }
            return changed;
        });
    }

    @Override
    public String readlink(long ino) throws IOException {
        return read(rows -> {
            Inode inode = rows.requireInode(ino);
            Optional<String> target = rows.symlinkTarget(ino);
            if (inode.type() != InodeType.SYMLINK || target.isEmpty()) {
                throw new FsException(FsError.EINVAL, "not a symlink: inode " + ino);
            }
            return target.get();
        });
    }

    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        return readStatement(rows -> {
            Optional<byte[]> value = rows.xattr(ino, name);
            if (value.isEmpty()) {
                rows.requireInode(ino);
            }
            return value;
        });
    }

    @Override
    public void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        requireNonNull(mode, "mode is null");
        byte[] copy = value.clone(); // the caller may change its array while we wait for the lock
        write(rows -> {
            rows.lockInode(ino);
            if (mode != XattrMode.UPSERT) {
                boolean present = rows.xattr(ino, name).isPresent();
                if (mode == XattrMode.CREATE && present) {
                    throw FsException.exists("xattr " + name + " of inode " + ino);
                }
                if (mode == XattrMode.REPLACE && !present) {
                    throw new FsException(FsError.ENODATA, "xattr " + name + " of inode " + ino);
                }
            }
            rows.putXattr(ino, name, copy);
            return null;
        });
    }

    @Override
    public List<String> listXattrs(long ino) throws IOException {
        return readStatement(rows -> rows.xattrNamesOf(ino));
    }

    @Override
    public void removeXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        write(rows -> {
            rows.lockInode(ino);
            if (!rows.deleteXattr(ino, name)) {
                throw new FsException(FsError.ENODATA, "xattr " + name + " of inode " + ino);
            }
            return null;
        });
    }

    @Override
    public int mergeListing(long dir, List<ListedEntry> entries) throws IOException {
        requireNonNull(entries, "entries is null");
        return write(rows -> namespace.mergeListing(dir, entries));
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        write(rows -> {
            rows.requireDirectory(dir);
            rows.setSynced(dir, syncedNs);
            return null;
        });
    }

    @Override
    public VolumeStats stats() throws IOException {
        return read(rows -> new VolumeStats(rows.counter(SqlRows.INODES), rows.counter(SqlRows.USED_BYTES)));
    }

    @Override
    public Optional<String> getSetting(String key) throws IOException {
        requireNonNull(key, "key is null");
        return read(rows -> rows.setting(key));
    }

    @Override
    public void putSetting(String key, String value) throws IOException {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        if (key.equals(MetaStores.FORMAT_VERSION_KEY)) {
            throw new IllegalArgumentException("setting " + key + " is kept by the metastore itself");
        }
        write(rows -> {
            rows.putSetting(key, value);
            return null;
        });
    }

    /** A snapshot read on connections of its own; see {@link SqlDump}. */
    @Override
    public DumpSource dumpSource() throws IOException {
        checkOpen();
        return new SqlDump.Source(dialect);
    }

    /** One write transaction on a connection of its own; see {@link SqlDump}. */
    @Override
    public LoadTarget loadTarget() throws IOException {
        checkOpen();
        return new SqlDump.Target(dialect);
    }

    /** A connection of its own, each repair one transaction; see {@link SqlFsck}. */
    @Override
    public FsckTarget fsckTarget() throws IOException {
        checkOpen();
        return new SqlFsck(dialect);
    }

    private void checkOpen() throws IOException {
        lock.lock();
        try {
            if (closed) {
                throw new IOException("metastore " + dialect.describe() + " is closed");
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            SQLException failure = null;
            try {
                rows.close();
            } catch (SQLException e) {
                failure = e;
            }
            try {
                connection.close(); // always, even when a statement would not close
            } catch (SQLException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
            if (failure != null) {
                throw new IOException("cannot close metastore " + dialect.describe() + ": " + failure.getMessage(),
                        failure);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "SqlMetaStore[" + dialect.describe() + "]";
    }

    // --- transactions

    private <T> T read(Work<T> work) throws IOException {
        return transaction(false, work);
    }

    /**
     * A read whose answer is one statement's, or a first statement's that a second only explains
     * (which error a miss is): on the autocommit connection each statement reads a consistent
     * snapshot, and BEGIN and COMMIT would double its round trips.
     */
    private <T> T readStatement(Work<T> work) throws IOException {
        lock.lock();
        try {
            if (closed) {
                throw new IOException("metastore " + dialect.describe() + " is closed");
            }
            return work.run(rows);
        } catch (SQLException e) {
            throw new IOException("metastore " + dialect.describe() + " failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private <T> T write(Work<T> work) throws IOException {
        return transaction(true, work);
    }

    private <T> T transaction(boolean write, Work<T> work) throws IOException {
        lock.lock();
        try {
            if (closed) {
                throw new IOException("metastore " + dialect.describe() + " is closed");
            }
            try {
                dialect.begin(connection, write);
                T result = work.run(rows);
                dialect.commit(connection);
                return result;
            } catch (SQLException e) {
                rollback(e);
                throw new IOException("metastore " + dialect.describe() + " failed: " + e.getMessage(), e);
            } catch (IOException | RuntimeException | Error e) {
                rollback(e);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    private void rollback(Throwable failure) {
        try {
            dialect.rollback(connection);
        } catch (SQLException e) {
            failure.addSuppressed(e); // e.g. BEGIN itself failed: there is nothing to roll back
        }
    }

    private static <T> T orElse(T value, T fallback) {
        return value != null ? value : fallback;
    }

    /** The body of one transaction. */
    @FunctionalInterface
    private interface Work<T> {
        T run(SqlRows rows) throws IOException, SQLException;
    }
}
