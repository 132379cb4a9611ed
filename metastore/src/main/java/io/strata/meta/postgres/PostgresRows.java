package io.strata.meta.postgres;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.NewInode;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import static java.util.Objects.requireNonNull;

/**
 * The statements of the PostgreSQL engine on one connection, with the mapping between rows and
 * records: single-row reads, the multi-row reads (inode locks, a directory page, names already
 * present, the ancestor walk) and the writes. Callers run the writes inside a transaction.
 *
 * <p>The usage counters are not written where they change: {@link #addUsage} collects the deltas
 * and {@link #flushUsage} writes them as the transaction's last statement, so the counter row is
 * the last lock every transaction takes (see the locking order in {@link PostgresMetaStore}).
 *
 * <p>Statements are prepared per call; the driver keeps the server-side prepared statements per
 * connection once a statement text has been used a few times.
 */
final class PostgresRows {
    /** Rows in the counters table; each transaction adds its deltas to a random one. */
    static final int COUNTER_SHARDS = 16;

    private static final String INODE_COLUMNS = "ino, type, mode, uid, gid, atime_ns, mtime_ns, ctime_ns, nlink, "
            + "size, rdev, parent, name, ufs_version, synced_ns";
    private static final String INSERT_INODE = "INSERT INTO inodes (" + INODE_COLUMNS + ", target) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_DENTRY = "INSERT INTO dentries (parent, name, ino, type) VALUES (?, ?, ?, ?)";
    /** A new inode numbered from the sequence and its one entry, in one statement: the values after ino. */
    private static final String CREATE = "WITH inode AS (INSERT INTO inodes (" + INODE_COLUMNS + ", target) "
            + "VALUES (nextval('inode_numbers'), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "RETURNING ino, type, parent, name) "
            + "INSERT INTO dentries (parent, name, ino, type) SELECT parent, name, ino, type FROM inode RETURNING ino";
    /** Unique violation: another writer inserted the same key first. */
    private static final String UNIQUE_VIOLATION = "23505";
    /** Deeper than any path the kernel can pass; reaching it means the parent chain has a cycle. */
    private static final int MAX_DEPTH = 1 << 16;

    private final Connection connection;
    private long inodesDelta;
    private long usedBytesDelta;

    PostgresRows(Connection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    /** The connection, for the schema's DDL. */
    Connection connection() {
        return connection;
    }

    // --- locks

    /**
     * Locks the rows of the inodes that exist among {@code inos}, in ascending inode order (the
     * sort runs below the row locking, so rows are locked in the order they are returned), and
     * returns them as they are now. Missing inodes are simply absent from the map.
     */
    Map<Long, Inode> lockInodes(long... inos) throws SQLException {
        Map<Long, Inode> locked = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + INODE_COLUMNS + " FROM inodes WHERE ino = ANY(?) ORDER BY ino FOR UPDATE")) {
            statement.setArray(1, bigintArray(inos));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Inode inode = toInode(rows, 1);
                    locked.put(inode.ino(), inode);
                }
            }
        }
        return locked;
    }

    /**
     * Takes the transaction-scoped advisory lock that serializes directory moves between parents
     * (Linux's rename mutex): while held, no other transaction changes a directory's parent, so
     * the ancestor walk of {@link #isAncestor} sees a stable chain.
     */
    void lockDirectoryMoves() throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            statement.setLong(1, PostgresSchema.DIRECTORY_MOVE_LOCK);
            statement.executeQuery().close();
        }
    }

    // --- inodes

    Optional<Inode> inode(long ino) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + INODE_COLUMNS + " FROM inodes WHERE ino = ?")) {
            statement.setLong(1, ino);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(toInode(rows, 1)) : Optional.empty();
            }
        }
    }

    /** Up to {@code limit} inodes numbered above {@code after}, in number order (fsck's scan). */
    List<Inode> inodesAfter(long after, int limit) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + INODE_COLUMNS + " FROM inodes WHERE ino > ? ORDER BY ino LIMIT ?")) {
            statement.setLong(1, after);
            statement.setInt(2, limit);
            List<Inode> inodes = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    inodes.add(toInode(rows, 1));
                }
            }
            return inodes;
        }
    }

    Inode requireInode(long ino) throws SQLException, FsException {
        return inode(ino).orElseThrow(() -> FsException.notFound("inode " + ino));
    }

    /** The type and symlink target (null for other types) of an inode, or empty if it does not exist. */
    Optional<TypeAndTarget> typeAndTarget(long ino) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT type, target FROM inodes WHERE ino = ?")) {
            statement.setLong(1, ino);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(new TypeAndTarget(toType(rows.getInt(1), ino), rows.getString(2)))
                        : Optional.empty();
            }
        }
    }

    /**
     * Inserts a new inode numbered from the sequence and its entry {@code (parent, name)}, in one
     * statement; EEXIST if another writer took the name.
     */
    Inode insertInode(long parent, String name, NewInode spec, long syncedNs) throws SQLException, FsException {
        Inode unnumbered = Inode.fromSpec(Long.MAX_VALUE, parent, name, spec, syncedNs);
        try (PreparedStatement statement = connection.prepareStatement(CREATE)) {
            Object[] values = inodeValues(unnumbered, spec.symlinkTarget());
            for (int i = 1; i < values.length; i++) {
                bind(statement, i, values[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return Inode.fromSpec(rows.getLong(1), parent, name, spec, syncedNs);
            }
        } catch (SQLException e) {
            throw uniqueViolationToEexist(e, "'" + name + "' in directory " + parent);
        }
    }

    /** Inserts an inode row as given; {@code target} is a symlink's target, null otherwise. */
    void insertInode(Inode inode, String target) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(INSERT_INODE)) {
            bindInode(statement, inode, target);
            statement.executeUpdate();
        }
    }

    /** Inserts new inodes and their entries in {@code parent} as two batches (multi-row inserts on the wire). */
    void insertInodes(List<Inode> inodes, List<String> targets) throws SQLException, FsException {
        try (PreparedStatement statement = connection.prepareStatement(INSERT_INODE)) {
            for (int i = 0; i < inodes.size(); i++) {
                bindInode(statement, inodes.get(i), targets.get(i));
                statement.addBatch();
            }
            statement.executeBatch();
        }
        try (PreparedStatement statement = connection.prepareStatement(INSERT_DENTRY)) {
            for (Inode inode : inodes) {
                bindDentry(statement, new Dentry(inode.parent(), inode.name(), inode.ino(), inode.type()));
                statement.addBatch();
            }
            statement.executeBatch();
        } catch (SQLException e) {
            throw uniqueViolationToEexist(e, "a listed name in directory " + inodes.get(0).parent());
        }
    }

    /** {@code count} new inode numbers from the sequence: never reused, possibly with gaps. */
    long[] allocateInodes(int count) throws SQLException {
        long[] inos = new long[count];
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT nextval('inode_numbers') FROM generate_series(1, ?)")) {
            statement.setInt(1, count);
            try (ResultSet rows = statement.executeQuery()) {
                for (int i = 0; i < count && rows.next(); i++) {
                    inos[i] = rows.getLong(1);
                }
            }
        }
        return inos;
    }

    /** Writes the attributes {@code setattr} can change. */
    void updateAttributes(Inode inode) throws SQLException {
        update("UPDATE inodes SET mode = ?, uid = ?, gid = ?, size = ?, atime_ns = ?, mtime_ns = ?, ctime_ns = ?, "
                        + "ufs_version = ? WHERE ino = ?",
                inode.mode(), inode.uid(), inode.gid(), inode.size(), inode.atimeNs(), inode.mtimeNs(),
                inode.ctimeNs(), inode.ufsVersion(), inode.ino());
    }

    /** nlink grows by {@code delta} and ctime becomes {@code ctimeNs}: a link added or removed. */
    void changeLinks(long ino, int delta, long ctimeNs) throws SQLException {
        update("UPDATE inodes SET nlink = nlink + ?, ctime_ns = ? WHERE ino = ?", delta, ctimeNs, ino);
    }

    void addNlink(long ino, int delta) throws SQLException {
        update("UPDATE inodes SET nlink = nlink + ? WHERE ino = ?", delta, ino);
    }

    void setCtime(long ino, long ctimeNs) throws SQLException {
        update("UPDATE inodes SET ctime_ns = ? WHERE ino = ?", ctimeNs, ino);
    }

    /** An entry was added to or removed from a directory: mtime and ctime move, nlink by {@code nlinkDelta}. */
    void touch(long dir, int nlinkDelta, long nowNs) throws SQLException {
        update("UPDATE inodes SET nlink = nlink + ?, mtime_ns = ?, ctime_ns = ? WHERE ino = ?", nlinkDelta, nowNs,
                nowNs, dir);
    }

    void setPrimaryLink(long ino, long parent, String name) throws SQLException {
        update("UPDATE inodes SET parent = ?, name = ? WHERE ino = ?", parent, name, ino);
    }

    void setSynced(long ino, long syncedNs) throws SQLException {
        update("UPDATE inodes SET synced_ns = ? WHERE ino = ?", syncedNs, ino);
    }

    /** Deletes the inode row and its xattrs, and takes it out of the usage counters. */
    void deleteInode(Inode inode) throws SQLException {
        update("DELETE FROM xattrs WHERE ino = ?", inode.ino());
        update("DELETE FROM inodes WHERE ino = ?", inode.ino());
        addUsage(-1, inode.isFile() ? -inode.size() : 0);
    }

    /**
     * Whether {@code ancestor} is {@code dir} or one of its ancestors, following the primary links
     * up to the root in one recursive query.
     */
    boolean isAncestor(long ancestor, long dir) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "WITH RECURSIVE up (ino, depth) AS ("
                        + " SELECT CAST(? AS BIGINT), 0"
                        + " UNION ALL SELECT i.parent, up.depth + 1 FROM up JOIN inodes i ON i.ino = up.ino"
                        + " WHERE up.ino <> ? AND up.ino <> ? AND up.depth < ?)"
                        + " SELECT max(depth), bool_or(ino = ?) FROM up")) {
            statement.setLong(1, dir);
            statement.setLong(2, Inode.ROOT);
            statement.setLong(3, ancestor);
            statement.setInt(4, MAX_DEPTH);
            statement.setLong(5, ancestor);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                if (rows.getInt(1) >= MAX_DEPTH) {
                    throw new SQLException("corrupt metastore: directory " + dir + " is more than " + MAX_DEPTH
                            + " levels below the root");
                }
                return rows.getBoolean(2);
            }
        }
    }

    // --- dentries

    Optional<Dentry> dentry(long parent, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT ino, type FROM dentries WHERE parent = ? AND name = ?")) {
            statement.setLong(1, parent);
            statement.setString(2, name);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(new Dentry(parent, name, rows.getLong(1),
                        toType(rows.getInt(2), rows.getLong(1)))) : Optional.empty();
            }
        }
    }

    /**
     * The directory's type and the entry, in one statement (one snapshot); null if the directory
     * does not exist.
     */
    Lookup lookup(long parent, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT i.type, d.ino, d.type FROM inodes i LEFT JOIN dentries d ON d.parent = i.ino AND d.name = ?"
                        + " WHERE i.ino = ?")) {
            statement.setString(1, name);
            statement.setLong(2, parent);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                InodeType type = toType(rows.getInt(1), parent);
                long ino = rows.getLong(2);
                Optional<Dentry> dentry = rows.wasNull() ? Optional.empty()
                        : Optional.of(new Dentry(parent, name, ino, toType(rows.getInt(3), ino)));
                return new Lookup(type, dentry);
            }
        }
    }

    /**
     * A page of a directory with the directory's own type, in one statement: null if the
     * directory does not exist; otherwise the type, then up to {@code limit} entries after
     * {@code after} in name order ("C" collation: code point order).
     */
    DirectoryPage page(long dir, String after, int limit) throws SQLException {
        String entries = "SELECT name, ino, type FROM dentries WHERE parent = i.ino"
                + (after == null ? "" : " AND name > ?") + " ORDER BY name LIMIT ?";
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT i.type, d.name, d.ino, d.type FROM inodes i LEFT JOIN LATERAL (" + entries + ") d ON true"
                        + " WHERE i.ino = ? ORDER BY d.name")) {
            int index = 1;
            if (after != null) {
                statement.setString(index++, after);
            }
            statement.setInt(index++, limit);
            statement.setLong(index, dir);
            try (ResultSet rows = statement.executeQuery()) {
                InodeType type = null;
                List<Dentry> page = new ArrayList<>();
                while (rows.next()) {
                    type = toType(rows.getInt(1), dir);
                    String name = rows.getString(2);
                    if (name != null) {
                        long ino = rows.getLong(3);
                        page.add(new Dentry(dir, name, ino, toType(rows.getInt(4), ino)));
                    }
                }
                return type == null ? null : new DirectoryPage(type, page);
            }
        }
    }

    /** Which of {@code names} are taken in {@code dir}, in one query. */
    Set<String> presentNames(long dir, Collection<String> names) throws SQLException {
        Set<String> present = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT name FROM dentries WHERE parent = ? AND name = ANY(?)")) {
            statement.setLong(1, dir);
            statement.setArray(2, connection.createArrayOf("text", names.toArray()));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    present.add(rows.getString(1));
                }
            }
        }
        return present;
    }

    boolean hasEntries(long dir) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT 1 FROM dentries WHERE parent = ? LIMIT 1")) {
            statement.setLong(1, dir);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    /** The inode's smallest remaining name by (parent, name): where its primary link moves. */
    Optional<Dentry> firstLink(long ino) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT parent, name, type FROM dentries WHERE ino = ? ORDER BY parent, name LIMIT 1")) {
            statement.setLong(1, ino);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(new Dentry(rows.getLong(1), rows.getString(2), ino,
                        toType(rows.getInt(3), ino))) : Optional.empty();
            }
        }
    }

    /** Inserts the entry; EEXIST if another writer took the name since the caller looked. */
    void insertDentry(Dentry dentry) throws SQLException, FsException {
        try (PreparedStatement statement = connection.prepareStatement(INSERT_DENTRY)) {
            bindDentry(statement, dentry);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw uniqueViolationToEexist(e, "'" + dentry.name() + "' in directory " + dentry.parent());
        }
    }

    void deleteDentry(long parent, String name) throws SQLException {
        update("DELETE FROM dentries WHERE parent = ? AND name = ?", parent, name);
    }

    // --- xattrs

    /** The value of an xattr, if set; ENOENT if the inode does not exist. */
    Optional<byte[]> xattr(long ino, String name) throws SQLException, FsException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT x.value FROM inodes i LEFT JOIN xattrs x ON x.ino = i.ino AND x.name = ? WHERE i.ino = ?")) {
            statement.setString(1, name);
            statement.setLong(2, ino);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw FsException.notFound("inode " + ino);
                }
                return Optional.ofNullable(rows.getBytes(1));
            }
        }
    }

    /** The xattr names of an existing inode in name order; ENOENT if it does not exist. */
    List<String> xattrNames(long ino) throws SQLException, FsException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT x.name FROM inodes i LEFT JOIN xattrs x ON x.ino = i.ino WHERE i.ino = ? ORDER BY x.name")) {
            statement.setLong(1, ino);
            try (ResultSet rows = statement.executeQuery()) {
                List<String> names = new ArrayList<>();
                boolean exists = false;
                while (rows.next()) {
                    exists = true;
                    String name = rows.getString(1);
                    if (name != null) {
                        names.add(name);
                    }
                }
                if (!exists) {
                    throw FsException.notFound("inode " + ino);
                }
                return names;
            }
        }
    }

    void putXattr(long ino, String name, byte[] value) throws SQLException {
        update("INSERT INTO xattrs (ino, name, value) VALUES (?, ?, ?) "
                + "ON CONFLICT (ino, name) DO UPDATE SET value = excluded.value", ino, name, value);
    }

    boolean deleteXattr(long ino, String name) throws SQLException {
        return update("DELETE FROM xattrs WHERE ino = ? AND name = ?", ino, name) > 0;
    }

    // --- counters and settings

    /** Collects a change of the usage counters, written by {@link #flushUsage} at the end of the transaction. */
    void addUsage(long inodes, long usedBytes) {
        inodesDelta += inodes;
        usedBytesDelta += usedBytes;
    }

    /** Writes the collected usage deltas to a random counter row: the transaction's last lock. */
    void flushUsage() throws SQLException {
        if (inodesDelta != 0 || usedBytesDelta != 0) {
            int shard = ThreadLocalRandom.current().nextInt(COUNTER_SHARDS);
            if (update("UPDATE counters SET inodes = inodes + ?, used_bytes = used_bytes + ? WHERE shard = ?",
                    inodesDelta, usedBytesDelta, shard) != 1) {
                throw new SQLException("counter row " + shard + " is missing");
            }
            inodesDelta = 0;
            usedBytesDelta = 0;
        }
    }

    /** The sums over the counter rows: {inodes, used bytes}. */
    long[] usage() throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT COALESCE(SUM(inodes), 0), COALESCE(SUM(used_bytes), 0) FROM counters");
                ResultSet rows = statement.executeQuery()) {
            rows.next();
            return new long[] {rows.getLong(1), rows.getLong(2)};
        }
    }

    Optional<String> setting(String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT value FROM settings WHERE key = ?")) {
            statement.setString(1, key);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
            }
        }
    }

    void putSetting(String key, String value) throws SQLException {
        update("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value);
    }

    // --- statements and mapping

    int update(String sql, Object... args) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                bind(statement, i + 1, args[i]);
            }
            return statement.executeUpdate();
        }
    }

    private Array bigintArray(long... values) throws SQLException {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return connection.createArrayOf("bigint", boxed);
    }

    private static FsException uniqueViolationToEexist(SQLException e, String what) throws SQLException {
        if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
            return new FsException(FsError.EEXIST, what, e);
        }
        throw e;
    }

    private static void bindInode(PreparedStatement statement, Inode inode, String target) throws SQLException {
        Object[] values = inodeValues(inode, target);
        for (int i = 0; i < values.length; i++) {
            bind(statement, i + 1, values[i]);
        }
    }

    /** The values of an inode row, in the order of {@link #INODE_COLUMNS} and then the target. */
    private static Object[] inodeValues(Inode inode, String target) {
        return new Object[] {inode.ino(), inode.type().modeBits(), inode.mode(), inode.uid(), inode.gid(),
                inode.atimeNs(), inode.mtimeNs(), inode.ctimeNs(), inode.nlink(), inode.size(), inode.rdev(),
                inode.parent(), inode.name(), inode.ufsVersion(), inode.syncedNs(), target};
    }

    private static void bindDentry(PreparedStatement statement, Dentry dentry) throws SQLException {
        statement.setLong(1, dentry.parent());
        statement.setString(2, dentry.name());
        statement.setLong(3, dentry.ino());
        statement.setInt(4, dentry.type().modeBits());
    }

    private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR); // only the nullable text columns are ever bound to null
        } else if (value instanceof Long v) {
            statement.setLong(index, v);
        } else if (value instanceof Integer v) {
            statement.setInt(index, v);
        } else if (value instanceof String v) {
            statement.setString(index, v);
        } else if (value instanceof byte[] v) {
            statement.setBytes(index, v);
        } else {
            throw new IllegalArgumentException("cannot bind " + value.getClass().getName());
        }
    }

    private static Inode toInode(ResultSet row, int first) throws SQLException {
        try {
            int c = first;
            return new Inode(row.getLong(c), InodeType.fromMode(row.getInt(c + 1)), row.getInt(c + 2),
                    row.getInt(c + 3), row.getInt(c + 4), row.getLong(c + 5), row.getLong(c + 6), row.getLong(c + 7),
                    row.getInt(c + 8), row.getLong(c + 9), row.getLong(c + 10), row.getLong(c + 11),
                    row.getString(c + 12), row.getString(c + 13), row.getLong(c + 14));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("corrupt inode row " + row.getLong(first), e);
        }
    }

    private static InodeType toType(int modeBits, long ino) throws SQLException {
        try {
            return InodeType.fromMode(modeBits);
        } catch (IllegalArgumentException e) {
            throw new SQLException("corrupt type " + modeBits + " of inode " + ino, e);
        }
    }

    /** A directory's type (to tell ENOTDIR) and one page of its entries. */
    record DirectoryPage(InodeType type, List<Dentry> entries) {}

    /** A directory's type (to tell ENOTDIR) and one of its entries, if present. */
    record Lookup(InodeType type, Optional<Dentry> entry) {}

    /** An inode's type and its symlink target (null for other types). */
    record TypeAndTarget(InodeType type, String target) {}
}
