package io.strata.meta.sql;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Row-level reads and writes of the tables {@link SqlMetaStore} describes, one statement each,
 * with the mapping between rows and records. Callers run them inside a transaction.
 *
 * <p>Prepared statements are kept per SQL string: the set of strings is fixed by this class,
 * so the map stays small.
 */
final class SqlRows implements AutoCloseable {
    static final String NEXT_INODE = "next_inode";
    static final String INODES = "inodes";
    static final String USED_BYTES = "used_bytes";

    private static final String INODE_COLUMNS = "ino, type, mode, uid, gid, atime_ns, mtime_ns, ctime_ns, nlink, "
            + "size, rdev, parent, name, ufs_version, synced_ns";
    private static final String DENTRY_COLUMNS = "parent, name, ino, type";
    private static final int INODE_COLUMN_COUNT = INODE_COLUMNS.split(", ").length;
    /** The inode columns of a join, where "parent" and "name" would be ambiguous. */
    private static final String JOINED_INODE_COLUMNS = Arrays.stream(INODE_COLUMNS.split(", "))
            .map(column -> "i." + column).collect(Collectors.joining(", "));

    private final Connection connection;
    private final SqlDialect dialect;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    SqlRows(Connection connection, SqlDialect dialect) {
        this.connection = requireNonNull(connection, "connection is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    // --- inodes

    Optional<Inode> inode(long ino) throws SQLException {
        return queryOne("SELECT " + INODE_COLUMNS + " FROM inodes WHERE ino = ?", SqlRows::toInode, ino);
    }

    /** Up to {@code limit} inodes numbered above {@code after}, in number order (fsck's scan). */
    List<Inode> inodesAfter(long after, int limit) throws SQLException {
        return queryList("SELECT " + INODE_COLUMNS + " FROM inodes WHERE ino > ? ORDER BY ino LIMIT ?",
                SqlRows::toInode, after, limit);
    }

    Inode requireInode(long ino) throws SQLException, FsException {
        return inode(ino).orElseThrow(() -> FsException.notFound("inode " + ino));
    }

    /** The inode, locked for the rest of the transaction because the caller will change it. */
    Inode lockInode(long ino) throws SQLException, FsException {
        return queryOne("SELECT " + INODE_COLUMNS + " FROM inodes WHERE ino = ?" + dialect.forUpdate(),
                SqlRows::toInode, ino).orElseThrow(() -> FsException.notFound("inode " + ino));
    }

    Inode requireDirectory(long ino) throws SQLException, FsException {
        Inode inode = requireInode(ino);
        if (!inode.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "inode " + ino);
        }
        return inode;
    }

    void insertInode(Inode inode, String symlinkTarget) throws SQLException {
        update("INSERT INTO inodes (" + INODE_COLUMNS + ", target) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                inode.ino(), inode.type().modeBits(), inode.mode(), inode.uid(), inode.gid(), inode.atimeNs(),
                inode.mtimeNs(), inode.ctimeNs(), inode.nlink(), inode.size(), inode.rdev(), inode.parent(),
                inode.name(), inode.ufsVersion(), inode.syncedNs(), symlinkTarget);
    }

    /** Writes the attributes {@code setattr} can change. */
    void updateAttributes(Inode inode) throws SQLException {
        update("UPDATE inodes SET mode = ?, uid = ?, gid = ?, size = ?, atime_ns = ?, mtime_ns = ?, ctime_ns = ?, "
                        + "ufs_version = ? WHERE ino = ?",
                inode.mode(), inode.uid(), inode.gid(), inode.size(), inode.atimeNs(), inode.mtimeNs(),
                inode.ctimeNs(), inode.ufsVersion(), inode.ino());
    }

    void addNlink(long ino, int delta) throws SQLException {
        update("UPDATE inodes SET nlink = nlink + ? WHERE ino = ?", delta, ino);
    }

    void setCtime(long ino, long ctimeNs) throws SQLException {
        update("UPDATE inodes SET ctime_ns = ? WHERE ino = ?", ctimeNs, ino);
    }

    /** A directory's mtime and ctime move when an entry is added or removed. */
    void touch(long dir, long nowNs) throws SQLException {
        update("UPDATE inodes SET mtime_ns = ?, ctime_ns = ? WHERE ino = ?", nowNs, nowNs, dir);
    }

    void setPrimaryLink(long ino, long parent, String name) throws SQLException {
        update("UPDATE inodes SET parent = ?, name = ? WHERE ino = ?", parent, name, ino);
    }

    void setSynced(long ino, long syncedNs) throws SQLException {
        update("UPDATE inodes SET synced_ns = ? WHERE ino = ?", syncedNs, ino);
    }

    Optional<String> symlinkTarget(long ino) throws SQLException {
        return queryOne("SELECT target FROM inodes WHERE ino = ?", rs -> rs.getString(1), ino);
    }

    /** Deletes the inode row and its xattrs, and takes it out of the counters. */
    void deleteInode(Inode inode) throws SQLException {
        update("DELETE FROM xattrs WHERE ino = ?", inode.ino());
        update("DELETE FROM inodes WHERE ino = ?", inode.ino());
        addCounter(INODES, -1);
        if (inode.isFile()) {
            addCounter(USED_BYTES, -inode.size());
        }
    }

    long allocateInode() throws SQLException {
        // increment first: the UPDATE locks the counter row until commit in every database
        addCounter(NEXT_INODE, 1);
        return counter(NEXT_INODE) - 1;
    }

    // --- dentries

    Optional<Dentry> dentry(long parent, String name) throws SQLException {
        return queryOne("SELECT " + DENTRY_COLUMNS + " FROM dentries WHERE parent = ? AND name = ?",
                SqlRows::toDentry, parent, name);
    }

    Dentry requireDentry(long parent, String name) throws SQLException, FsException {
        return dentry(parent, name).orElseThrow(() -> FsException.notFound("'" + name + "' in directory " + parent));
    }

    List<Dentry> dentries(long parent, String after, int limit) throws SQLException {
        if (after == null) {
            return queryList("SELECT " + DENTRY_COLUMNS + " FROM dentries WHERE parent = ? ORDER BY name LIMIT ?",
                    SqlRows::toDentry, parent, limit);
        }
        return queryList("SELECT " + DENTRY_COLUMNS + " FROM dentries WHERE parent = ? AND name > ? "
                + "ORDER BY name LIMIT ?", SqlRows::toDentry, parent, after, limit);
    }

    /** A page of {@link #dentries} joined with the inodes: the entry's name is the last column. */
    List<DirectoryEntry> entriesWithInodes(long parent, String after, int limit) throws SQLException {
        String select = "SELECT " + JOINED_INODE_COLUMNS + ", d.name FROM dentries d JOIN inodes i ON i.ino = d.ino"
                + " WHERE d.parent = ?";
        RowMapper<DirectoryEntry> entry = rs -> {
            Inode inode = toInode(rs);
            return new DirectoryEntry(new Dentry(parent, rs.getString(INODE_COLUMN_COUNT + 1), inode.ino(),
                    inode.type()), inode);
        };
        if (after == null) {
            return queryList(select + " ORDER BY d.name LIMIT ?", entry, parent, limit);
        }
        return queryList(select + " AND d.name > ? ORDER BY d.name LIMIT ?", entry, parent, after, limit);
    }

    boolean hasEntries(long dir) throws SQLException {
        return queryOne("SELECT 1 FROM dentries WHERE parent = ? LIMIT 1", rs -> true, dir).isPresent();
    }

    /** The inode's smallest remaining name by (parent, name): where its primary link moves. */
    Optional<Dentry> firstLink(long ino) throws SQLException {
        return queryOne("SELECT " + DENTRY_COLUMNS + " FROM dentries WHERE ino = ? ORDER BY parent, name LIMIT 1",
                SqlRows::toDentry, ino);
    }

    /** Inserts the entry; EEXIST if another writer took the name since the caller looked. */
    void insertDentry(Dentry dentry) throws SQLException, FsException {
        try {
            update("INSERT INTO dentries (" + DENTRY_COLUMNS + ") VALUES (?, ?, ?, ?)", dentry.parent(),
                    dentry.name(), dentry.ino(), dentry.type().modeBits());
        } catch (SQLException e) {
            if (dialect.isUniqueViolation(e)) {
                throw new FsException(FsError.EEXIST, "'" + dentry.name() + "' in directory " + dentry.parent(), e);
            }
            throw e;
        }
    }

    void deleteDentry(long parent, String name) throws SQLException {
        update("DELETE FROM dentries WHERE parent = ? AND name = ?", parent, name);
    }

    // --- xattrs

    Optional<byte[]> xattr(long ino, String name) throws SQLException {
        // an empty BLOB may come back as null from some drivers
        return queryOne("SELECT value FROM xattrs WHERE ino = ? AND name = ?", rs -> {
            byte[] value = rs.getBytes(1);
            return value == null ? new byte[0] : value;
        }, ino, name);
    }

    /** The inode's xattr names in one statement: ENOENT when there is no such inode. */
    List<String> xattrNamesOf(long ino) throws SQLException, FsException {
        List<Optional<String>> rows = queryList("SELECT x.name FROM inodes i LEFT JOIN xattrs x ON x.ino = i.ino"
                + " WHERE i.ino = ? ORDER BY x.name", rs -> Optional.ofNullable(rs.getString(1)), ino);
        if (rows.isEmpty()) {
            throw FsException.notFound("inode " + ino);
        }
        return rows.stream().flatMap(Optional::stream).toList();
    }

    void putXattr(long ino, String name, byte[] value) throws SQLException {
        update(dialect.upsert("xattrs", List.of("ino", "name"), List.of("value")), ino, name, value);
    }

    boolean deleteXattr(long ino, String name) throws SQLException {
        return update("DELETE FROM xattrs WHERE ino = ? AND name = ?", ino, name) > 0;
    }

    // --- counters and settings

    long counter(String name) throws SQLException {
        return queryOne("SELECT value FROM counters WHERE name = ?", rs -> rs.getLong(1), name)
                .orElseThrow(() -> new SQLException("counter " + name + " is missing"));
    }

    void addCounter(String name, long delta) throws SQLException {
        if (update("UPDATE counters SET value = value + ? WHERE name = ?", delta, name) != 1) {
            throw new SQLException("counter " + name + " is missing");
        }
    }

    void setCounter(String name, long value) throws SQLException {
        update("UPDATE counters SET value = ? WHERE name = ?", value, name);
    }

    void insertCounter(String name, long value) throws SQLException {
        update("INSERT INTO counters (name, value) VALUES (?, ?)", name, value);
    }

    Optional<String> setting(String key) throws SQLException {
        return queryOne("SELECT value FROM settings WHERE key = ?", rs -> rs.getString(1), key);
    }

    void putSetting(String key, String value) throws SQLException {
        update(dialect.upsert("settings", List.of("key"), List.of("value")), key, value);
    }

    // --- statements

    int update(String sql, Object... args) throws SQLException {
        PreparedStatement statement = prepare(sql, args);
        return statement.executeUpdate();
    }

    @Override
    public void close() throws SQLException {
        SQLException failure = null;
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        statements.clear();
        if (failure != null) {
            throw failure;
        }
    }

    private <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... args) throws SQLException {
        try (ResultSet rows = prepare(sql, args).executeQuery()) {
            return rows.next() ? Optional.ofNullable(mapper.map(rows)) : Optional.empty();
        }
    }

    private <T> List<T> queryList(String sql, RowMapper<T> mapper, Object... args) throws SQLException {
        List<T> result = new ArrayList<>();
        try (ResultSet rows = prepare(sql, args).executeQuery()) {
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
        }
        return result;
    }

    private PreparedStatement prepare(String sql, Object... args) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        for (int i = 0; i < args.length; i++) {
            bind(statement, i + 1, args[i]);
        }
        return statement;
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

    private static Inode toInode(ResultSet row) throws SQLException {
        try {
            return new Inode(row.getLong(1), InodeType.fromMode(row.getInt(2)), row.getInt(3), row.getInt(4),
                    row.getInt(5), row.getLong(6), row.getLong(7), row.getLong(8), row.getInt(9), row.getLong(10),
                    row.getLong(11), row.getLong(12), row.getString(13), row.getString(14), row.getLong(15));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("corrupt inode row " + row.getLong(1), e);
        }
    }

    private static Dentry toDentry(ResultSet row) throws SQLException {
        try {
            return new Dentry(row.getLong(1), row.getString(2), row.getLong(3), InodeType.fromMode(row.getInt(4)));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("corrupt dentry row in directory " + row.getLong(1), e);
        }
    }

    @FunctionalInterface
    private interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }
}
