/*
 * Schema of the PostgreSQL metastore (format version 1, see MetaStores.FORMAT_VERSION), in the
 * current schema of the database the URL names. DDL: PostgresSchema.
 *
 *   inodes    (ino BIGINT PK, type INTEGER, mode INTEGER, uid INTEGER, gid INTEGER,
 *              atime_ns BIGINT, mtime_ns BIGINT, ctime_ns BIGINT, nlink INTEGER, size BIGINT,
 *              rdev BIGINT, parent BIGINT, name NAME, ufs_version TEXT NULL, synced_ns BIGINT,
 *              target TEXT NULL)
 *      one row per inode. type: the S_IFMT bits of InodeType (0100000 file, 0040000 directory...);
 *      mode: permission bits only (07777). (parent, name): the primary link, (1, "") for the
 *      root. synced_ns: -1 = never synced. target: the symlink target, NULL for other types.
 *   dentries  (parent BIGINT, name NAME, ino BIGINT, type INTEGER, PK (parent, name))
 *      one row per name; type as in inodes, copied so readdir needs no join. The primary key's
 *      index serves lookup and readdir pages (name > ? ORDER BY name LIMIT n).
 *      Index dentries_by_ino (ino): the remaining names of an inode whose primary link is removed.
 *   xattrs    (ino BIGINT, name NAME, value BYTEA, PK (ino, name))
 *   counters  (shard INTEGER PK, inodes BIGINT, used_bytes BIGINT)
 *      16 rows (shards 0..15); a transaction adds its deltas to one chosen at random, stats()
 *      adds them up: no single hot row. inodes: how many inode rows exist (the root's 1 is in
 *      shard 0); used_bytes: the sum of size over FILE inodes.
 *   settings  (key TEXT PK, value TEXT)
 *      volume settings; format_version is written on format and checked on open.
 *   inode_numbers (SEQUENCE, starts at 2)
 *      inode numbers: never reused; a rolled-back transaction leaves a gap.
 *
 * NAME is TEXT COLLATE "C": in a UTF8 database (checked on open) it compares UTF-8 bytes, which
 * is Unicode code point order (Names.ORDER), so ORDER BY name and readdir's "name > ?" agree with
 * every other engine. Times are nanoseconds since the epoch.
 *
 * Locking. Writes run as READ COMMITTED transactions. Every write locks the inode rows it will
 * change, all of them in one SELECT ... WHERE ino = ANY(?) ORDER BY ino FOR UPDATE: the parents
 * whose entries change and the inodes those entries name. Only then does it read the entries it
 * acts on; an entry naming an inode it did not lock restarts the transaction (PostgresNamespace).
 * The locks are taken in this order and no other:
 *   1. pg_advisory_xact_lock(DIRECTORY_MOVE_LOCK), only by a rename moving a directory to
 *      another parent, so the ancestor walk that refuses moves into the own subtree is stable;
 *   2. inode rows, ascending by ino, in one statement; dentry and xattr rows are written only
 *      by holders of their parent's / inode's lock, so their row locks never wait;
 *   3. one counters row, in the transaction's last statement.
 * With one order no two transactions wait for each other in a cycle. Deadlocks (40P01) and
 * serialization failures (40001) are retried all the same, a bounded number of times with backoff
 * (PostgresTransactions). Reads are single statements (joins and LATERAL for a directory's
 * check and its page), each on its own snapshot, on a pooled connection in auto-commit mode.
 */
package io.strata.meta.postgres;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
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
import io.strata.meta.postgres.PostgresRows.DirectoryPage;
import io.strata.meta.postgres.PostgresRows.Lookup;
import io.strata.meta.postgres.PostgresRows.TypeAndTarget;
import io.strata.meta.postgres.PostgresTransactions.Work;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The PostgreSQL {@link MetaStore} engine ({@code jdbc:postgresql://host:port/db}), for volumes
 * that many clients share: a pool of connections, row locks in inode order, bounded retries.
 *
 * <p>The tables and the locking order are in this file's header. Namespace changes live in
 * {@link PostgresNamespace}, statements in {@link PostgresRows}, the pool and the retry loop in
 * {@link PostgresTransactions}, DDL and the format check in {@link PostgresSchema}.
 */
public final class PostgresMetaStore implements MetaStore {
    private final PostgresTransactions transactions;
    private final String where;
    private volatile boolean closed;

    private PostgresMetaStore(PostgresTransactions transactions, String where) {
        this.transactions = transactions;
        this.where = where;
    }

    /**
     * Connects to the database {@code url} names, formatting it as a new volume if it has no
     * tables yet. The password comes from the URL's {@code password} parameter, else from the
     * environment variable {@value MetaStores#PASSWORD_ENV}.
     *
     * @throws IllegalArgumentException for a malformed URL
     * @throws IOException if the database cannot be reached or is not a volume this build reads
     */
    public static PostgresMetaStore open(String url) throws IOException {
        return open(url, System::getenv);
    }

    /** {@link #open(String)} with the environment given, for tests. */
    static PostgresMetaStore open(String url, Function<String, String> environment) throws IOException {
        PostgresUrl parsed = PostgresUrl.parse(url, environment);
        PostgresTransactions transactions;
        try {
            transactions = PostgresTransactions.open(parsed);
        } catch (SQLException e) {
            throw new IOException("cannot open metastore " + parsed.describe() + ": " + e.getMessage(), e);
        }
        PostgresMetaStore store = new PostgresMetaStore(transactions, parsed.describe());
        try {
            long nowNs = System.currentTimeMillis() * 1_000_000L;
            transactions.write(rows -> {
                PostgresSchema.prepare(rows.connection(), rows, parsed.describe(), nowNs);
                return null;
            });
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    @Override
    public Inode getInode(long ino) throws IOException {
        return read(rows -> rows.requireInode(ino));
    }

    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        requireNonNull(name, "name is null");
        return read(rows -> {
            Lookup lookup = rows.lookup(parent, name);
            checkDirectory(lookup == null ? null : lookup.type(), parent);
            return lookup.entry();
        });
    }

    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        return read(rows -> {
            DirectoryPage page = rows.page(dir, after, limit);
            checkDirectory(page == null ? null : page.type(), dir);
            return page.entries();
        });
    }

    @Override
    public Inode create(long parent, String name, NewInode spec) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(spec, "spec is null");
        return write(rows -> new PostgresNamespace(rows).create(parent, name, spec));
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> new PostgresNamespace(rows).link(ino, parent, name, nowNs));
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> new PostgresNamespace(rows).unlink(parent, name, nowNs));
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return write(rows -> new PostgresNamespace(rows).rmdir(parent, name, nowNs));
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        requireNonNull(srcName, "srcName is null");
        requireNonNull(dstName, "dstName is null");
        return write(rows -> new PostgresNamespace(rows).rename(srcParent, srcName, dstParent, dstName, nowNs));
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
            TypeAndTarget found = rows.typeAndTarget(ino).orElseThrow(() -> FsException.notFound("inode " + ino));
            if (found.type() != InodeType.SYMLINK || found.target() == null) {
                throw new FsException(FsError.EINVAL, "not a symlink: inode " + ino);
            }
            return found.target();
        });
    }

    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        return read(rows -> rows.xattr(ino, name));
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
        return read(rows -> rows.xattrNames(ino));
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
        return write(rows -> new PostgresNamespace(rows).mergeListing(dir, copy));
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        write(rows -> {
            Inode inode = lockInode(rows, dir);
            checkDirectory(inode.type(), dir);
            rows.setSynced(dir, syncedNs);
            return null;
        });
    }

    @Override
    public VolumeStats stats() throws IOException {
        return read(rows -> {
            long[] usage = rows.usage();
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
        if (key.equals(MetaStores.FORMAT_VERSION_KEY)) {
            throw new IllegalArgumentException("setting " + key + " is kept by the metastore itself");
        }
        write(rows -> {
            rows.putSetting(key, value);
            return null;
        });
    }

    /** One exported snapshot read on several pooled connections; see {@link PostgresDump}. */
    @Override
    public DumpSource dumpSource() throws IOException {
        checkOpen();
        return new PostgresDump.Source(transactions::borrow, where);
    }

    /** Batches on several pooled connections, committed together at the end; see {@link PostgresDump}. */
    @Override
    public LoadTarget loadTarget() throws IOException {
        checkOpen();
        return new PostgresDump.Target(transactions::borrow, where);
    }

    /** A scan and raw repairs, each a transaction of the store's pool; see {@link PostgresFsck}. */
    @Override
    public FsckTarget fsckTarget() throws IOException {
        checkOpen();
        return new PostgresFsck(transactions);
    }

    @Override
    public void close() {
        closed = true;
        transactions.close(); // idempotent; a connection still in use is aborted
    }

    @Override
    public String toString() {
        return "PostgresMetaStore[" + where + "]";
    }

    // --- helpers

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
            throw new IOException("metastore " + where + " is closed");
        }
    }

    private static Inode lockInode(PostgresRows rows, long ino) throws SQLException, FsException {
        Inode inode = rows.lockInodes(ino).get(ino);
        if (inode == null) {
            throw FsException.notFound("inode " + ino);
        }
        return inode;
    }

    /** ENOENT for a missing inode (null type), ENOTDIR for another type. */
    private static void checkDirectory(InodeType type, long ino) throws FsException {
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
