package io.strata.meta.jdbc;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeFormat;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.fsck.FsckTarget;
import io.strata.meta.jdbc.Reads.DirectoryPage;
import io.strata.meta.jdbc.Reads.Lookup;
import io.strata.meta.jdbc.Reads.TypeAndTarget;
import io.strata.meta.jdbc.Transactions.Work;
import io.strata.meta.jdbc.dialect.SqlDialect;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The {@link MetaStore} engine over JDBC, for SQLite, PostgreSQL and MariaDB/MySQL alike: every
 * read one statement (or a second that only explains a miss), every change one transaction that
 * locks the inodes it changes first. What differs between the databases is the
 * {@link SqlDialect}'s.
 *
 * <p>The tables and the locking order are in package-info. Namespace changes live in
 * {@link Namespace}, statements in {@link Rows} and {@link Reads}, connections and the retry loop
 * in {@link Transactions}, DDL and the format check in {@link Schema}.
 */
public final class JdbcMetaStore implements MetaStore {
    private final SqlDialect dialect;
    private final Transactions transactions;
    private final boolean embedded;
    private volatile boolean closed;

    private JdbcMetaStore(SqlDialect dialect, Transactions transactions) {
        this.dialect = dialect;
        this.transactions = transactions;
        this.embedded = dialect.locksDatabase();
    }

    /**
     * Connects through {@code dialect}, formatting an empty database as a new volume.
     *
     * @throws IOException if the database cannot be reached or is not a volume this build reads
     */
    public static JdbcMetaStore open(SqlDialect dialect) throws IOException {
        requireNonNull(dialect, "dialect is null");
        Transactions transactions;
        try {
            transactions = new Transactions(dialect, dialect.open());
        } catch (SQLException e) {
            throw new IOException("cannot open metastore " + dialect.describe() + ": " + e.getMessage(), e);
        }
        JdbcMetaStore store = new JdbcMetaStore(dialect, transactions);
        try {
            long nowNs = System.currentTimeMillis() * 1_000_000L;
            transactions.writeFormat(rows -> {
                Schema.prepare(rows, dialect, nowNs);
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
        return read(rows -> rows.requireInode(ino));
    }

    /** One statement with the directory's type; embedded, the entry alone, and the directory only for a miss. */
    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        requireNonNull(name, "name is null");
        return read(rows -> {
            if (embedded) {
                Optional<Dentry> found = rows.dentry(parent, name);
                if (found.isEmpty()) {
                    requireDirectory(rows.inode(parent).map(Inode::type).orElse(null), parent);
                }
                return found;
            }
            Lookup lookup = new Reads(rows).lookup(parent, name);
            requireDirectory(lookup == null ? null : lookup.type(), parent);
            return lookup.entry();
        });
    }

    /**
     * One statement with the directory's type; embedded, the page alone, and the directory only
     * for an empty page (only a directory has entries, and SQLite would sort the joined page again).
     */
    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        checkLimit(limit);
        return read(rows -> {
            if (embedded) {
                List<Dentry> page = rows.dentries(dir, after, limit);
                if (page.isEmpty()) {
                    requireDirectory(rows.inode(dir).map(Inode::type).orElse(null), dir);
                }
                return page;
            }
            DirectoryPage page = new Reads(rows).page(dir, after, limit);
            requireDirectory(page == null ? null : page.type(), dir);
            return page.entries();
        });
    }

    /** One statement: the page joined with its inodes. */
    @Override
    public boolean readdirPlusIsOneRead() {
        return true;
    }

    @Override
    public List<DirectoryEntry> readdirPlus(long dir, String after, int limit) throws IOException {
        checkLimit(limit);
        return read(rows -> {
            List<DirectoryEntry> page = new Reads(rows).entriesWithInodes(dir, after, limit);
            if (page.isEmpty()) {
                requireDirectory(rows.inode(dir).map(Inode::type).orElse(null), dir); // rather than an empty listing
            }
            return page;
        });
    }

    @Override
    public Inode create(long parent, String name, NewInode spec) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(spec, "spec is null");
        return write(rows -> namespace(rows).create(parent, name, spec));
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> namespace(rows).link(ino, parent, name, nowNs));
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> namespace(rows).unlink(parent, name, nowNs));
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> namespace(rows).rmdir(parent, name, nowNs));
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        requireNonNull(srcName, "srcName is null");
        requireNonNull(dstName, "dstName is null");
        return write(rows -> namespace(rows).rename(srcParent, srcName, dstParent, dstName, nowNs));
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
            Inode old = lockInode(rows, ino);
            Inode changed = new Inode(ino, old.type(), orElse(change.mode(), old.mode()),
                    orElse(change.uid(), old.uid()), orElse(change.gid(), old.gid()),
                    orElse(change.atimeNs(), old.atimeNs()), orElse(change.mtimeNs(), old.mtimeNs()),
                    change.ctimeNs(), old.nlink(), orElse(change.size(), old.size()), old.rdev(), old.parent(),
                    old.name(), orElse(change.ufsVersion(), old.ufsVersion()), old.syncedNs());
            rows.updateAttributes(changed);
            if (old.isFile() && changed.size() != old.size()) {
                rows.addUsage(0, changed.size() - old.size());
            }
            return changed;
        });
    }

    @Override
    public String readlink(long ino) throws IOException {
        return read(rows -> {
            TypeAndTarget found = new Reads(rows).typeAndTarget(ino).orElseThrow(() -> FsException.notFound("inode " + ino));
            if (found.type() != InodeType.SYMLINK || found.target() == null) {
                throw new FsException(FsError.EINVAL, "not a symlink: inode " + ino);
            }
            return found.target();
        });
    }

    /** One statement with whether the inode exists; embedded, the xattr alone, and the inode only for a miss. */
    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        return read(rows -> {
            if (embedded) {
                Optional<byte[]> value = rows.xattr(ino, name);
                if (value.isEmpty()) {
                    rows.requireInode(ino);
                }
                return value;
            }
            return new Reads(rows).xattrOfExisting(ino, name);
        });
    }

    @Override
    public void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        requireNonNull(mode, "mode is null");
        byte[] copy = value.clone(); // the caller may change its array while a retry waits
        write(rows -> {
            lockInode(rows, ino);
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
        return read(rows -> new Reads(rows).xattrNames(ino));
    }

    @Override
    public void removeXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        write(rows -> {
            lockInode(rows, ino);
            if (!rows.deleteXattr(ino, name)) {
                throw new FsException(FsError.ENODATA, "xattr " + name + " of inode " + ino);
            }
            return null;
        });
    }

    @Override
    public int mergeListing(long dir, List<ListedEntry> entries) throws IOException {
        requireNonNull(entries, "entries is null");
        List<ListedEntry> copy = List.copyOf(entries);
        return write(rows -> namespace(rows).mergeListing(dir, copy));
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        write(rows -> {
            requireDirectory(lockInode(rows, dir).type(), dir);
            rows.setSynced(dir, syncedNs);
            return null;
        });
    }

    @Override
    public void prefetch() throws IOException {
        dialect.prefetch();
    }

    @Override
    public VolumeStats stats() throws IOException {
        return read(rows -> {
            long[] usage = dialect.counters().read(rows.session());
            return new VolumeStats(usage[0], usage[1]);
        });
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
        VolumeFormat.checkWritable(key);
        write(rows -> {
            rows.putSetting(key, value);
            return null;
        });
    }

    /** One snapshot read on several connections of the dialect's; see {@link JdbcDumpSource}. */
    @Override
    public DumpSource dumpSource() throws IOException {
        checkOpen();
        return JdbcDumpSource.open(dialect, transactions.connections());
    }

    /** Batches on the dialect's number of connections; see {@link JdbcLoadTarget}. */
    @Override
    public LoadTarget loadTarget() throws IOException {
        checkOpen();
        return new JdbcLoadTarget(dialect, transactions);
    }

    /** A scan and raw repairs, each a transaction of the store's; see {@link JdbcFsck}. */
    @Override
    public FsckTarget fsckTarget() throws IOException {
        checkOpen();
        return new JdbcFsck(dialect, transactions);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        transactions.close(); // idempotent
    }

    @Override
    public String toString() {
        return "JdbcMetaStore[" + dialect.describe() + "]";
    }

    // --- helpers

    private Namespace namespace(Rows rows) {
        return new Namespace(rows, embedded);
    }

    private <T> T read(Work<T> work) throws IOException {
        checkOpen();
        return transactions.read(work);
    }

    private <T> T write(Work<T> work) throws IOException {
        checkOpen();
        return transactions.write(work);
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("metastore " + dialect.describe() + " is closed");
        }
    }

    private static void checkLimit(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
    }

    private static Inode lockInode(Rows rows, long ino) throws SQLException, FsException {
        Inode inode = rows.lockInodes(ino).get(ino);
        if (inode == null) {
            throw FsException.notFound("inode " + ino);
        }
        return inode;
    }

    /** ENOENT for a missing inode (null type), ENOTDIR for another type. */
    private static void requireDirectory(InodeType type, long ino) throws FsException {
        if (type == null) {
            throw FsException.notFound("inode " + ino);
        }
        if (type != InodeType.DIRECTORY) {
            throw new FsException(FsError.ENOTDIR, "inode " + ino);
        }
    }

    private static <T> T orElse(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
