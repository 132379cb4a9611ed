package io.strata.meta.jdbc;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.NewInode;
import io.strata.meta.jdbc.dialect.ResultRow;
import io.strata.meta.jdbc.dialect.Session;
import io.strata.meta.jdbc.dialect.SqlDialect;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The statements of the engine on one session: the inode locks, single-row reads, the writes
 * (inside the caller's transaction), and the names of a directory already present; the joined
 * reads are {@link Reads}'.
 *
 * <p>Usage is not written where it changes: {@link #addUsage} collects the deltas and
 * {@link #flushUsage} writes them as the transaction's last statement, so the counter row is the
 * last lock every transaction takes (see the locking order in package-info).
 */
final class Rows {
    /** Deeper than any path the kernel can pass; reaching it means the parent chain has a cycle. */
    private static final int MAX_DEPTH = 1 << 16;
    private static final String SELECT_INODE = "SELECT " + Columns.INODE + " FROM inodes WHERE ";

    private final Session session;
    private final SqlDialect dialect;
    private long inodesDelta;
    private long usedBytesDelta;

    Rows(Session session, SqlDialect dialect) {
        this.session = session;
        this.dialect = dialect;
    }

    Session session() {
        return session;
    }

    // --- locks

    /**
     * Locks the rows of the inodes that exist among {@code inos}, in ascending inode order (the
     * sort runs below the row locking, so rows are locked in the order they are returned), and
     * returns them as they are now. Missing inodes are absent from the map.
     */
    Map<Long, Inode> lockInodes(long... inos) throws SQLException {
        List<Long> distinct = Arrays.stream(inos).distinct().boxed().toList();
        PreparedStatement statement;
        if (distinct.size() == 1) { // most changes lock one inode: a plain key lookup
            statement = session.prepare(SELECT_INODE + "ino = ?" + dialect.forUpdate());
            statement.setLong(1, distinct.get(0));
        } else {
            statement = session.prepare(SELECT_INODE + dialect.inList("ino", distinct.size()) + " ORDER BY ino"
                    + dialect.forUpdate());
            dialect.bindList(statement, 1, "bigint", distinct);
        }
        Map<Long, Inode> locked = new LinkedHashMap<>();
        try (ResultSet results = statement.executeQuery()) {
            ResultRow row = dialect.rows(results);
            while (results.next()) {
                Inode inode = Columns.inode(row, 1);
                locked.put(inode.ino(), inode);
            }
        }
        return locked;
    }

    /**
     * Takes the lock that serializes directory moves between parents (Linux's rename mutex), held
     * to the end of the transaction: while held, no other transaction changes a directory's
     * parent, so the ancestor walk of {@link #isAncestor} sees a stable chain.
     */
    void lockDirectoryMoves() throws SQLException {
        dialect.lockDirectoryMoves(session);
    }

    // --- inodes

    Optional<Inode> inode(long ino) throws SQLException {
        return queryOne(SELECT_INODE + "ino = ?", rows -> Columns.inode(rows, 1), ino);
    }

    /** Up to {@code limit} inodes numbered above {@code after}, in number order (fsck's scan). */
    List<Inode> inodesAfter(long after, int limit) throws SQLException {
        return queryList(SELECT_INODE + "ino > ? ORDER BY ino LIMIT ?", rows -> Columns.inode(rows, 1), after, limit);
    }

    Inode requireInode(long ino) throws SQLException, FsException {
        return inode(ino).orElseThrow(() -> FsException.notFound("inode " + ino));
    }

    /**
     * A new inode and its entry {@code (parent, name)}: one statement where the inode numbers can
     * be drawn inside it (PostgreSQL), else a number taken first and two inserts. EEXIST if
     * another writer took the name.
     */
    Inode createInode(long parent, String name, NewInode spec, long syncedNs) throws SQLException, FsException {
        String numberInInsert = dialect.inodeNumbers().inInsert();
        if (numberInInsert == null) {
            Inode inode = Inode.fromSpec(allocateInodes(1)[0], parent, name, spec, syncedNs);
            insertInode(inode, spec.symlinkTarget());
            insertDentry(new Dentry(parent, name, inode.ino(), inode.type()));
            return inode;
        }
        Object[] values = Columns.values(Inode.fromSpec(Long.MAX_VALUE, parent, name, spec, syncedNs),
                spec.symlinkTarget());
        PreparedStatement statement = session.prepare("WITH inode AS (INSERT INTO inodes (" + Columns.INODE_AND_TARGET
                + ") VALUES (" + numberInInsert + ", ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                + "RETURNING ino, type, parent, name) "
                + "INSERT INTO dentries (parent, name, ino, type) SELECT parent, name, ino, type FROM inode RETURNING ino");
        for (int i = 1; i < values.length; i++) {
            Columns.bind(statement, i, values[i]);
        }
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return Inode.fromSpec(rows.getLong(1), parent, name, spec, syncedNs);
        } catch (SQLException e) {
            throw uniqueViolationToEexist(e, "'" + name + "' in directory " + parent);
        }
    }

    /** Inserts an inode row as given; {@code target} is a symlink's target, null otherwise. */
    void insertInode(Inode inode, String target) throws SQLException {
        PreparedStatement statement = session.prepare(Columns.INSERT_INODE);
        Columns.bindInode(statement, inode, target);
        statement.executeUpdate();
    }

    /** Inserts new inodes and their entries (their primary links) as two batches. */
    void insertInodes(List<Inode> inodes, List<String> targets) throws SQLException, FsException {
        PreparedStatement statement = session.prepare(Columns.INSERT_INODE);
        for (int i = 0; i < inodes.size(); i++) {
            Columns.bindInode(statement, inodes.get(i), targets.get(i));
            statement.addBatch();
        }
        statement.executeBatch();
        statement = session.prepare(Columns.INSERT_DENTRY);
        for (Inode inode : inodes) {
            Columns.bindDentry(statement, new Dentry(inode.parent(), inode.name(), inode.ino(), inode.type()));
            statement.addBatch();
        }
        try {
            statement.executeBatch();
        } catch (SQLException e) {
            throw uniqueViolationToEexist(e, "a listed name in directory " + inodes.get(0).parent());
        }
    }

    long[] allocateInodes(int count) throws SQLException {
        return dialect.inodeNumbers().take(session, count);
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

    /** Deletes the inode row and its xattrs, and takes it out of the usage. */
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
        PreparedStatement statement = session.prepare("WITH RECURSIVE up (ino, parent, depth) AS ("
                + "SELECT ino, parent, 0 FROM inodes WHERE ino = ?"
                + " UNION ALL SELECT i.ino, i.parent, up.depth + 1 FROM up JOIN inodes i ON i.ino = up.parent"
                + " WHERE up.ino <> ? AND up.ino <> ? AND up.depth < ?)"
                + " SELECT MAX(depth), MAX(CASE WHEN ino = ? THEN 1 ELSE 0 END) FROM up");
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
            return rows.getInt(2) == 1;
        }
    }

    // --- dentries

    Optional<Dentry> dentry(long parent, String name) throws SQLException {
        return queryOne("SELECT ino, type FROM dentries WHERE parent = ? AND name = ?",
                rows -> new Dentry(parent, name, rows.getLong(1), Columns.type(rows.getInt(2), rows.getLong(1))),
                parent, name);
    }

    /** Up to {@code limit} entries of {@code dir} after {@code after} (null: from the first), in name order. */
    List<Dentry> dentries(long dir, String after, int limit) throws SQLException {
        RowMapper<Dentry> entry = row -> new Dentry(dir, row.getString(1), row.getLong(2),
                Columns.type(row.getInt(3), row.getLong(2)));
        if (after == null) {
            return queryList("SELECT name, ino, type FROM dentries WHERE parent = ? ORDER BY name LIMIT ?", entry, dir,
                    limit);
        }
        return queryList("SELECT name, ino, type FROM dentries WHERE parent = ? AND name > ? ORDER BY name LIMIT ?",
                entry, dir, after, limit);
    }

    /** Which of {@code names} are taken in {@code dir}, in one query. */
    Set<String> presentNames(long dir, List<String> names) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT name FROM dentries WHERE parent = ? AND "
                + dialect.inList("name", names.size()));
        statement.setLong(1, dir);
        dialect.bindList(statement, 2, "text", names);
        Set<String> present = new HashSet<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                present.add(rows.getString(1));
            }
        }
        return present;
    }

    boolean hasEntries(long dir) throws SQLException {
        return queryOne("SELECT 1 FROM dentries WHERE parent = ? LIMIT 1", rows -> true, dir).isPresent();
    }

    /** The inode's smallest remaining name by (parent, name): where its primary link moves. */
    Optional<Dentry> firstLink(long ino) throws SQLException {
        return queryOne("SELECT parent, name, type FROM dentries WHERE ino = ? ORDER BY parent, name LIMIT 1",
                rows -> new Dentry(rows.getLong(1), rows.getString(2), ino, Columns.type(rows.getInt(3), ino)), ino);
    }

    /** Inserts the entry; EEXIST if another writer took the name since the caller looked. */
    void insertDentry(Dentry dentry) throws SQLException, FsException {
        PreparedStatement statement = session.prepare(Columns.INSERT_DENTRY);
        Columns.bindDentry(statement, dentry);
        try {
            statement.executeUpdate();
        } catch (SQLException e) {
            throw uniqueViolationToEexist(e, "'" + dentry.name() + "' in directory " + dentry.parent());
        }
    }

    void deleteDentry(long parent, String name) throws SQLException {
        update("DELETE FROM dentries WHERE parent = ? AND name = ?", parent, name);
    }

    // --- xattrs

    /** The value of an xattr, if set (an empty BLOB may come back as null from some drivers). */
    Optional<byte[]> xattr(long ino, String name) throws SQLException {
        return queryOne("SELECT value FROM xattrs WHERE ino = ? AND name = ?", Rows::blob, ino, name);
    }

    void putXattr(long ino, String name, byte[] value) throws SQLException {
        update(dialect.upsert("xattrs", List.of("ino", "name"), List.of("value")), ino, name, value);
    }

    boolean deleteXattr(long ino, String name) throws SQLException {
        return update("DELETE FROM xattrs WHERE ino = ? AND name = ?", ino, name) > 0;
    }

    // --- usage and settings

    /** Collects a change of the usage, written by {@link #flushUsage} at the end of the transaction. */
    void addUsage(long inodes, long usedBytes) {
        inodesDelta += inodes;
        usedBytesDelta += usedBytes;
    }

    /** Writes the collected usage deltas: the transaction's last statement, and last lock. */
    void flushUsage() throws SQLException {
        dialect.counters().add(session, inodesDelta, usedBytesDelta);
        inodesDelta = 0;
        usedBytesDelta = 0;
    }

    Optional<String> setting(String key) throws SQLException {
        return queryOne("SELECT value FROM settings WHERE \"key\" = ?", rows -> rows.getString(1), key);
    }

    void putSetting(String key, String value) throws SQLException {
        update(dialect.upsert("settings", List.of("\"key\""), List.of("value")), key, value);
    }

    // --- statements

    int update(String sql, Object... args) throws SQLException {
        return bound(sql, args).executeUpdate();
    }

    <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... args) throws SQLException {
        try (ResultSet results = bound(sql, args).executeQuery()) {
            return results.next() ? Optional.ofNullable(mapper.map(dialect.rows(results))) : Optional.empty();
        }
    }

    <T> List<T> queryList(String sql, RowMapper<T> mapper, Object... args) throws SQLException {
        List<T> result = new ArrayList<>();
        try (ResultSet results = bound(sql, args).executeQuery()) {
            ResultRow row = dialect.rows(results);
            while (results.next()) {
                result.add(mapper.map(row));
            }
        }
        return result;
    }

    private PreparedStatement bound(String sql, Object... args) throws SQLException {
        PreparedStatement statement = session.prepare(sql);
        for (int i = 0; i < args.length; i++) {
            Columns.bind(statement, i + 1, args[i]);
        }
        return statement;
    }

    private FsException uniqueViolationToEexist(SQLException e, String what) throws SQLException {
        if (dialect.isUniqueViolation(e)) {
            return new FsException(FsError.EEXIST, what, e);
        }
        throw e;
    }

    /** A BLOB column's bytes; empty for an empty BLOB, which a driver may return as null. */
    static byte[] blob(ResultRow row, int column) throws SQLException {
        byte[] value = row.getBytes(column);
        return value == null ? new byte[0] : value;
    }

    private static byte[] blob(ResultRow row) throws SQLException {
        return blob(row, 1);
    }

    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultRow row) throws SQLException;
    }
}
