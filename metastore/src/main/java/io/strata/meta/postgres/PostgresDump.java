package io.strata.meta.postgres;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStores;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpEntry;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;
import io.strata.meta.dump.LoadBatch;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.dump.Unicode;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Dump and load for the PostgreSQL engine (the tables are in the header of
 * {@link PostgresMetaStore}), on pooled connections held for the whole run.
 *
 * <p>A dump is one consistent snapshot read on {@value #CONNECTIONS} connections at once, as
 * pg_dump's parallel mode does: the first opens a REPEATABLE READ, READ ONLY transaction and
 * exports its snapshot, the others import it. A directory page is one join of dentries and inodes
 * plus one query of the xattrs over the same range of names.
 *
 * <p>A load writes its batches on {@value #CONNECTIONS} connections, each in one long transaction
 * of multi-row inserts (the driver rewrites JDBC batches so). At the end those commit, then one
 * more transaction writes the root, the nlink fixes, the counters, the inode sequence and the
 * settings. The setting {@link LoadTarget#LOADING_SETTING}, committed first and removed by that
 * last transaction, marks a load cut short between the commits; a failure before them rolls
 * everything back. The tables are analyzed at the end, so the planner knows their new size.
 */
final class PostgresDump {
    static final int CONNECTIONS = 4;

    private static final String INODE_COLUMNS = "i.ino, i.type, i.mode, i.uid, i.gid, i.atime_ns, i.mtime_ns, "
            + "i.ctime_ns, i.nlink, i.size, i.rdev, i.parent, i.name, i.ufs_version, i.synced_ns, i.target";
    private static final String PAGE = "SELECT d.name, d.ino, " + INODE_COLUMNS
            + " FROM dentries d LEFT JOIN inodes i ON i.ino = d.ino WHERE d.parent = ?";
    private static final String FIRST_PAGE = PAGE + " ORDER BY d.name LIMIT ?";
    private static final String NEXT_PAGE = PAGE + " AND d.name > ? ORDER BY d.name LIMIT ?";
    /** By the page's inode numbers: an index probe per inode whatever the planner's statistics say. */
    private static final String PAGE_XATTRS = "SELECT ino, name, value FROM xattrs WHERE ino = ANY(?) "
            + "ORDER BY ino, name";
    private static final Pattern SNAPSHOT_ID = Pattern.compile("[0-9A-Fa-f-]+");

    private PostgresDump() {}

    /** Where the dump and load take their connections from (the engine's pool); the caller closes each. */
    @FunctionalInterface
    interface Connections {
        Connection borrow() throws SQLException;
    }

    private static DumpedInode inode(ResultSet row, int first, List<Xattr> xattrs) throws SQLException {
        long ino = row.getLong(first);
        try {
            Inode inode = new Inode(ino, InodeType.fromMode(row.getInt(first + 1)), row.getInt(first + 2),
                    row.getInt(first + 3), row.getInt(first + 4), row.getLong(first + 5), row.getLong(first + 6),
                    row.getLong(first + 7), row.getInt(first + 8), row.getLong(first + 9), row.getLong(first + 10),
                    row.getLong(first + 11), row.getString(first + 12), row.getString(first + 13),
                    row.getLong(first + 14));
            String target = inode.type() == InodeType.SYMLINK ? row.getString(first + 15) : null;
            if (inode.type() == InodeType.SYMLINK && target == null) {
                throw new SQLException("corrupt metastore: symlink " + ino + " has no target");
            }
            return new DumpedInode(inode, target, xattrs);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("corrupt inode row " + ino + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(Connection connection, Throwable failure) {
        try {
            connection.close(); // the pool rolls back an open transaction and resets the connection
        } catch (SQLException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    private static Connection take(BlockingQueue<Connection> idle) throws InterruptedIOException {
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    /** One snapshot on {@value #CONNECTIONS} connections; see the class comment. */
    static final class Source implements DumpSource {
        private final String where;
        private final List<Connection> connections = new ArrayList<>();
        private final BlockingQueue<Connection> idle = new ArrayBlockingQueue<>(CONNECTIONS);

        Source(Connections pool, String where) throws IOException {
            this.where = requireNonNull(where, "where is null");
            try {
                String snapshot = null;
                for (int i = 0; i < CONNECTIONS; i++) {
                    Connection connection = pool.borrow();
                    connections.add(connection);
                    connection.setAutoCommit(false);
                    connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                    connection.setReadOnly(true);
                    try (Statement statement = connection.createStatement()) {
                        if (snapshot == null) {
                            try (ResultSet rows = statement.executeQuery("SELECT pg_export_snapshot()")) {
                                rows.next();
                                snapshot = rows.getString(1);
                            }
                            if (!SNAPSHOT_ID.matcher(snapshot).matches()) {
                                throw new SQLException("unexpected snapshot id '" + snapshot + "'");
                            }
                        } else {
                            statement.execute("SET TRANSACTION SNAPSHOT '" + snapshot + "'");
                        }
                    }
                    idle.add(connection);
                }
            } catch (SQLException e) {
                IOException failure = new IOException("cannot dump " + where + ": " + e.getMessage(), e);
                connections.forEach(connection -> closeQuietly(connection, failure));
                throw failure;
            }
        }

        @Override
        public String consistency() {
            return "a consistent snapshot (one exported REPEATABLE READ snapshot)";
        }

        @Override
        public int parallelism() {
            return CONNECTIONS;
        }

        @Override
        public Map<String, String> settings() throws IOException {
            return read(connection -> {
                Map<String, String> settings = new HashMap<>();
                try (Statement statement = connection.createStatement();
                        ResultSet rows = statement.executeQuery("SELECT key, value FROM settings")) {
                    while (rows.next()) {
                        settings.put(rows.getString(1), rows.getString(2));
                    }
                }
                return settings;
            });
        }

        @Override
        public DumpCounters counters() throws IOException {
            return read(connection -> {
                try (Statement statement = connection.createStatement()) {
                    long inodes;
                    long usedBytes;
                    try (ResultSet rows = statement.executeQuery(
                            "SELECT COALESCE(SUM(inodes), 0), COALESCE(SUM(used_bytes), 0) FROM counters")) {
                        rows.next();
                        inodes = rows.getLong(1);
                        usedBytes = rows.getLong(2);
                    }
                    // sequences are outside snapshots: this is at least one more than any number in it
                    try (ResultSet rows = statement.executeQuery("SELECT last_value, is_called FROM inode_numbers")) {
                        rows.next();
                        long next = rows.getBoolean(2) ? rows.getLong(1) + 1 : rows.getLong(1);
                        return new DumpCounters(next, inodes, usedBytes);
                    }
                }
            });
        }

        @Override
        public DumpedInode root() throws IOException {
            return read(connection -> {
                List<Xattr> xattrs = new ArrayList<>();
                try (Statement statement = connection.createStatement()) {
                    try (ResultSet rows = statement.executeQuery("SELECT name, value FROM xattrs WHERE ino = "
                            + Inode.ROOT + " ORDER BY name")) {
                        while (rows.next()) {
                            xattrs.add(new Xattr(rows.getString(1), rows.getBytes(2)));
                        }
                    }
                    try (ResultSet rows = statement.executeQuery("SELECT " + INODE_COLUMNS + " FROM inodes i "
                            + "WHERE i.ino = " + Inode.ROOT)) {
                        if (!rows.next()) {
                            throw new SQLException("corrupt metastore: the root inode is missing");
                        }
                        return inode(rows, 1, xattrs);
                    }
                }
            });
        }

        @Override
        public List<DumpEntry> page(long dir, String after, int limit) throws IOException {
            return read(connection -> {
                List<String> names = new ArrayList<>();
                List<Long> inos = new ArrayList<>();
                List<DumpedInode> nodes = new ArrayList<>();
                try (PreparedStatement statement = connection.prepareStatement(after == null ? FIRST_PAGE : NEXT_PAGE)) {
                    statement.setLong(1, dir);
                    if (after == null) {
                        statement.setInt(2, limit);
                    } else {
                        statement.setString(2, after);
                        statement.setInt(3, limit);
                    }
                    try (ResultSet result = statement.executeQuery()) {
                        while (result.next()) {
                            names.add(result.getString(1));
                            inos.add(result.getLong(2));
                            result.getLong(3);
                            nodes.add(result.wasNull() ? null : inode(result, 3, List.of())); // null: no inode row
                        }
                    }
                }
                if (names.isEmpty()) {
                    return List.of();
                }
                Map<Long, List<Xattr>> xattrs = new HashMap<>();
                try (PreparedStatement statement = connection.prepareStatement(PAGE_XATTRS)) {
                    statement.setArray(1, connection.createArrayOf("bigint", inos.toArray()));
                    try (ResultSet result = statement.executeQuery()) {
                        while (result.next()) {
                            xattrs.computeIfAbsent(result.getLong(1), ino -> new ArrayList<>())
                                    .add(new Xattr(result.getString(2), result.getBytes(3)));
                        }
                    }
                }
                List<DumpEntry> page = new ArrayList<>(names.size());
                for (int i = 0; i < names.size(); i++) {
                    DumpedInode node = nodes.get(i);
                    List<Xattr> own = node == null ? null : xattrs.get(node.ino());
                    if (own != null) {
                        node = new DumpedInode(node.inode(), node.symlinkTarget(), own);
                    }
                    page.add(new DumpEntry(names.get(i), inos.get(i), node));
                }
                return page;
            });
        }

        @Override
        public void close() {
            connections.forEach(connection -> closeQuietly(connection, null));
            connections.clear();
        }

        private <T> T read(Read<T> read) throws IOException {
            Connection connection = take(idle);
            try {
                return read.run(connection);
            } catch (SQLException e) {
                throw new IOException("cannot dump " + where + ": " + e.getMessage(), e);
            } finally {
                idle.add(connection);
            }
        }

        @FunctionalInterface
        private interface Read<T> {
            T run(Connection connection) throws SQLException;
        }
    }

    /** Batches in long transactions on {@value #CONNECTIONS} connections; see the class comment. */
    static final class Target implements LoadTarget {
        private static final String INSERT_INODE = "INSERT INTO inodes (ino, type, mode, uid, gid, atime_ns, mtime_ns, "
                + "ctime_ns, nlink, size, rdev, parent, name, ufs_version, synced_ns, target) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        private static final String INSERT_DENTRY = "INSERT INTO dentries (parent, name, ino, type) VALUES (?, ?, ?, ?)";
        private static final String INSERT_XATTR = "INSERT INTO xattrs (ino, name, value) VALUES (?, ?, ?)";
        private static final String UPSERT_SETTING = "INSERT INTO settings (key, value) VALUES (?, ?) "
                + "ON CONFLICT (key) DO UPDATE SET value = excluded.value";

        private final Connections pool;
        private final String where;
        private final List<Connection> writers = new ArrayList<>();
        private final BlockingQueue<Connection> idle = new ArrayBlockingQueue<>(CONNECTIONS);

        Target(Connections pool, String where) {
            this.pool = requireNonNull(pool, "pool is null");
            this.where = requireNonNull(where, "where is null");
        }

        @Override
        public String describe() {
            return where;
        }

        @Override
        public int parallelism() {
            return CONNECTIONS;
        }

        @Override
        public Optional<String> nonEmpty() throws IOException {
            return once(false, connection -> {
                try (Statement statement = connection.createStatement()) {
                    try (ResultSet rows = statement.executeQuery("SELECT 1 FROM settings WHERE key = '"
                            + LOADING_SETTING + "'")) {
                        if (rows.next()) {
                            return Optional.of("a load into it did not finish");
                        }
                    }
                    try (ResultSet rows = statement.executeQuery("SELECT (SELECT COUNT(*) FROM inodes), "
                            + "EXISTS (SELECT 1 FROM xattrs WHERE ino = " + Inode.ROOT + ")")) {
                        rows.next();
                        if (rows.getLong(1) > 1) {
                            return Optional.of("it has " + rows.getLong(1) + " inodes");
                        }
                        if (rows.getBoolean(2)) {
                            return Optional.of("its root directory has xattrs");
                        }
                    }
                    return Optional.empty();
                }
            });
        }

        @Override
        public void clear() throws IOException {
            once(true, connection -> {
                long now = System.currentTimeMillis() * 1_000_000L;
                try (Statement statement = connection.createStatement()) {
                    statement.execute("TRUNCATE dentries, xattrs");
                    statement.executeUpdate("DELETE FROM inodes WHERE ino <> " + Inode.ROOT);
                    statement.executeUpdate("DELETE FROM settings WHERE key <> '" + MetaStores.FORMAT_VERSION_KEY + "'");
                    statement.executeUpdate("UPDATE counters SET inodes = CASE WHEN shard = 0 THEN 1 ELSE 0 END, "
                            + "used_bytes = 0");
                    statement.executeQuery("SELECT setval('inode_numbers', " + (Inode.ROOT + 1) + ", false)").close();
                }
                updateRoot(connection, new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, now, now, now, 2, 0, 0,
                        Inode.ROOT, "", null, Inode.NEVER_SYNCED));
                return null;
            });
        }

        @Override
        public void begin() throws IOException {
            once(true, connection -> {
                try (PreparedStatement statement = connection.prepareStatement(UPSERT_SETTING)) {
                    statement.setString(1, LOADING_SETTING);
                    statement.setString(2, "strata load began at " + Instant.now());
                    statement.executeUpdate();
                }
                return null;
            });
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    Connection connection = pool.borrow();
                    writers.add(connection);
                    connection.setAutoCommit(false);
                    idle.add(connection);
                }
            } catch (SQLException e) {
                throw new IOException("cannot load into " + where + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void write(LoadBatch batch) throws IOException {
            Connection connection = take(idle);
            try (PreparedStatement inodes = connection.prepareStatement(INSERT_INODE);
                    PreparedStatement dentries = connection.prepareStatement(INSERT_DENTRY);
                    PreparedStatement xattrs = connection.prepareStatement(INSERT_XATTR)) {
                int xattrCount = 0;
                for (DumpedInode node : batch.inodes()) {
                    Inode inode = node.inode();
                    inodes.setLong(1, inode.ino());
                    inodes.setInt(2, inode.type().modeBits());
                    inodes.setInt(3, inode.mode());
                    inodes.setInt(4, inode.uid());
                    inodes.setInt(5, inode.gid());
                    inodes.setLong(6, inode.atimeNs());
                    inodes.setLong(7, inode.mtimeNs());
                    inodes.setLong(8, inode.ctimeNs());
                    inodes.setInt(9, inode.nlink());
                    inodes.setLong(10, inode.size());
                    inodes.setLong(11, inode.rdev());
                    inodes.setLong(12, inode.parent());
                    inodes.setString(13, storable(inode.name(), "name"));
                    setText(inodes, 14, inode.ufsVersion(), "UFS version");
                    inodes.setLong(15, inode.syncedNs());
                    setText(inodes, 16, node.symlinkTarget(), "symlink target");
                    inodes.addBatch();
                    for (Xattr xattr : node.xattrs()) {
                        xattrs.setLong(1, inode.ino());
                        xattrs.setString(2, storable(xattr.name(), "xattr name"));
                        xattrs.setBytes(3, xattr.value());
                        xattrs.addBatch();
                        xattrCount++;
                    }
                }
                for (LoadBatch.Name name : batch.names()) {
                    Dentry dentry = name.dentry();
                    dentries.setLong(1, dentry.parent());
                    dentries.setString(2, storable(dentry.name(), "name"));
                    dentries.setLong(3, dentry.ino());
                    dentries.setInt(4, dentry.type().modeBits());
                    dentries.addBatch();
                }
                if (!batch.inodes().isEmpty()) {
                    inodes.executeBatch();
                }
                if (!batch.names().isEmpty()) {
                    dentries.executeBatch();
                }
                if (xattrCount > 0) {
                    xattrs.executeBatch();
                }
            } catch (SQLException e) {
                throw new IOException("cannot load into " + where + ": " + message(e), e);
            } finally {
                idle.add(connection);
            }
        }

        @Override
        public void finish(Summary summary) throws IOException {
            try {
                for (Connection connection : writers) {
                    connection.commit();
                }
            } catch (SQLException e) {
                throw new IOException("cannot load into " + where + ": " + message(e), e);
            }
            once(true, connection -> {
                DumpedInode root = summary.root();
                updateRoot(connection, root.inode());
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("DELETE FROM xattrs WHERE ino = " + Inode.ROOT);
                }
                try (PreparedStatement xattrs = connection.prepareStatement(INSERT_XATTR)) {
                    for (Xattr xattr : root.xattrs()) {
                        xattrs.setLong(1, Inode.ROOT);
                        xattrs.setString(2, storable(xattr.name(), "xattr name"));
                        xattrs.setBytes(3, xattr.value());
                        xattrs.addBatch();
                    }
                    xattrs.executeBatch();
                }
                try (PreparedStatement nlink = connection.prepareStatement("UPDATE inodes SET nlink = ? WHERE ino = ?");
                        PreparedStatement primary = connection.prepareStatement(
                                "UPDATE inodes SET nlink = ?, parent = ?, name = ? WHERE ino = ?")) {
                    for (LinkFix fix : summary.fixes()) {
                        if (fix.movesPrimary()) {
                            primary.setInt(1, fix.nlink());
                            primary.setLong(2, fix.parent());
                            primary.setString(3, fix.name());
                            primary.setLong(4, fix.ino());
                            primary.addBatch();
                        } else {
                            nlink.setInt(1, fix.nlink());
                            nlink.setLong(2, fix.ino());
                            nlink.addBatch();
                        }
                    }
                    nlink.executeBatch();
                    primary.executeBatch();
                }
                DumpCounters counters = summary.counters();
                try (PreparedStatement statement = connection.prepareStatement("UPDATE counters SET "
                        + "inodes = CASE WHEN shard = 0 THEN ? ELSE 0 END, "
                        + "used_bytes = CASE WHEN shard = 0 THEN ? ELSE 0 END")) {
                    statement.setLong(1, counters.inodes());
                    statement.setLong(2, counters.usedBytes());
                    statement.executeUpdate();
                }
                try (PreparedStatement statement = connection.prepareStatement("SELECT setval('inode_numbers', ?, false)")) {
                    statement.setLong(1, counters.nextInode());
                    statement.executeQuery().close();
                }
                try (PreparedStatement statement = connection.prepareStatement(UPSERT_SETTING)) {
                    for (Map.Entry<String, String> setting : summary.settings().entrySet()) {
                        statement.setString(1, storable(setting.getKey(), "setting"));
                        statement.setString(2, storable(setting.getValue(), "setting"));
                        statement.addBatch();
                    }
                    statement.executeBatch();
                }
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("DELETE FROM settings WHERE key = '" + LOADING_SETTING + "'");
                }
                return null;
            });
            // fresh statistics: the planner should not take a million-row volume for an empty one
            once(false, connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("ANALYZE inodes, dentries, xattrs");
                }
                return null;
            });
        }

        @Override
        public void abort() throws IOException {
            for (Connection connection : writers) {
                try {
                    connection.rollback();
                } catch (SQLException e) {
                    // the connection may be what failed; clear() below empties the volume all the same
                }
            }
            clear();
        }

        @Override
        public void close() {
            writers.forEach(connection -> closeQuietly(connection, null));
            writers.clear();
            idle.clear();
        }

        private static void updateRoot(Connection connection, Inode root) throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement("UPDATE inodes SET mode = ?, uid = ?, "
                    + "gid = ?, atime_ns = ?, mtime_ns = ?, ctime_ns = ?, nlink = ?, size = ?, rdev = ?, "
                    + "ufs_version = ?, synced_ns = ? WHERE ino = ?")) {
                statement.setInt(1, root.mode());
                statement.setInt(2, root.uid());
                statement.setInt(3, root.gid());
                statement.setLong(4, root.atimeNs());
                statement.setLong(5, root.mtimeNs());
                statement.setLong(6, root.ctimeNs());
                statement.setInt(7, root.nlink());
                statement.setLong(8, root.size());
                statement.setLong(9, root.rdev());
                if (root.ufsVersion() == null) {
                    statement.setNull(10, Types.VARCHAR);
                } else {
                    statement.setString(10, root.ufsVersion());
                }
                statement.setLong(11, root.syncedNs());
                statement.setLong(12, root.ino());
                statement.executeUpdate();
            }
        }

        private void setText(PreparedStatement statement, int index, String value, String what) throws SQLException {
            if (value == null) {
                statement.setNull(index, Types.VARCHAR);
            } else {
                statement.setString(index, storable(value, what));
            }
        }

        /** PostgreSQL text holds valid UTF-8 without NUL characters. */
        private String storable(String value, String what) throws SQLException {
            if (!Unicode.isWellFormed(value) || value.indexOf('\0') >= 0) {
                throw new SQLException("the " + what + " \"" + Unicode.printable(value) + "\" cannot be stored in "
                        + "PostgreSQL: it is not valid Unicode (an unpaired surrogate) or holds a NUL character");
            }
            return value;
        }

        /** A batch failure's own message names only the first statement; the cause says what went wrong. */
        private static String message(SQLException e) {
            SQLException next = e.getNextException();
            return next != null ? next.getMessage() : e.getMessage();
        }

        /** One statement group on a connection of its own: a transaction if {@code write}, committed at the end. */
        private <T> T once(boolean write, Work<T> work) throws IOException {
            try (Connection connection = pool.borrow()) {
                connection.setAutoCommit(!write);
                try {
                    T result = work.run(connection);
                    if (write) {
                        connection.commit();
                    }
                    return result;
                } catch (SQLException | RuntimeException e) {
                    if (write) {
                        try {
                            connection.rollback();
                        } catch (SQLException suppressed) {
                            e.addSuppressed(suppressed);
                        }
                    }
                    throw e;
                }
            } catch (SQLException e) {
                throw new IOException("cannot load into " + where + ": " + message(e), e);
            }
        }

        @FunctionalInterface
        private interface Work<T> {
            T run(Connection connection) throws SQLException;
        }
    }
}
