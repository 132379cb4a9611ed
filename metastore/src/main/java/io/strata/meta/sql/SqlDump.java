package io.strata.meta.sql;

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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import static java.util.Objects.requireNonNull;

/**
 * Dump and load for the SQL engine (the tables are in the header of {@link SqlMetaStore}), each
 * on connections of its own.
 *
 * <p>A dump reads a directory page with one join of dentries and inodes, and its xattrs with one
 * more query over the same range of names, on {@value #READERS} connections at once. They all
 * read one snapshot: each starts its read transaction while a write transaction held on another
 * connection keeps every commit out (SQLite has one writer at a time), then that is rolled back.
 *
 * <p>A load is one write transaction on one connection, its inserts in JDBC batches: a failure
 * rolls it all back, and a load cut short leaves nothing behind.
 */
final class SqlDump {
    static final int READERS = 2;

    private static final String INODE_COLUMNS = "i.ino, i.type, i.mode, i.uid, i.gid, i.atime_ns, i.mtime_ns, "
            + "i.ctime_ns, i.nlink, i.size, i.rdev, i.parent, i.name, i.ufs_version, i.synced_ns, i.target";
    private static final String PAGE = "SELECT d.name, d.ino, " + INODE_COLUMNS
            + " FROM dentries d LEFT JOIN inodes i ON i.ino = d.ino WHERE d.parent = ?";
    private static final String FIRST_PAGE = PAGE + " ORDER BY d.name LIMIT ?";
    private static final String NEXT_PAGE = PAGE + " AND d.name > ? ORDER BY d.name LIMIT ?";
    private static final String PAGE_XATTRS = "SELECT x.ino, x.name, x.value FROM dentries d JOIN xattrs x "
            + "ON x.ino = d.ino WHERE d.parent = ? AND d.name >= ? AND d.name <= ? ORDER BY x.ino, x.name";
    private static final String ROOT = "SELECT " + INODE_COLUMNS + " FROM inodes i WHERE i.ino = " + Inode.ROOT;
    private static final String ROOT_XATTRS = "SELECT ino, name, value FROM xattrs WHERE ino = " + Inode.ROOT
            + " ORDER BY name";

    private SqlDump() {}

    /** An inode from the 16 columns of {@link #INODE_COLUMNS} starting at {@code first}. */
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

    private static byte[] blob(ResultSet row, int column) throws SQLException {
        byte[] value = row.getBytes(column);
        return value == null ? new byte[0] : value; // an empty BLOB may come back as null
    }

    private static void closeAll(List<Connection> connections, Throwable failure) {
        for (Connection connection : connections) {
            try {
                connection.close();
            } catch (SQLException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    /** Reads one snapshot on {@value #READERS} connections; see the class comment. */
    static final class Source implements DumpSource {
        private final SqlDialect dialect;
        private final List<Connection> connections = new ArrayList<>();
        private final BlockingQueue<Reader> idle = new ArrayBlockingQueue<>(READERS);

        Source(SqlDialect dialect) throws IOException {
            this.dialect = requireNonNull(dialect, "dialect is null");
            Connection gate = null;
            try {
                gate = dialect.connect();
                dialect.begin(gate, true); // no commit lands until every reader has its snapshot
                for (int i = 0; i < READERS; i++) {
                    Connection reader = dialect.connect();
                    connections.add(reader);
                    dialect.begin(reader, false);
                    try (Statement statement = reader.createStatement();
                            ResultSet snapshot = statement.executeQuery("SELECT COUNT(*) FROM counters")) {
                        snapshot.next(); // a read transaction takes its snapshot at its first read
                    }
                    idle.add(new Reader(reader));
                }
                dialect.rollback(gate);
            } catch (SQLException e) {
                IOException failure = new IOException("cannot dump " + dialect.describe() + ": " + e.getMessage(), e);
                closeAll(connections, failure);
                throw failure;
            } finally {
                if (gate != null) {
                    closeAll(List.of(gate), null);
                }
            }
        }

        @Override
        public String consistency() {
            return "a consistent snapshot (read transactions that all began at one commit)";
        }

        @Override
        public int parallelism() {
            return READERS;
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
                Map<String, Long> counters = new HashMap<>();
                try (Statement statement = connection.createStatement();
                        ResultSet rows = statement.executeQuery("SELECT name, value FROM counters")) {
                    while (rows.next()) {
                        counters.put(rows.getString(1), rows.getLong(2));
                    }
                }
                for (String name : List.of(SqlRows.NEXT_INODE, SqlRows.INODES, SqlRows.USED_BYTES)) {
                    if (!counters.containsKey(name)) {
                        throw new SQLException("corrupt metastore: counter " + name + " is missing");
                    }
                }
                return new DumpCounters(counters.get(SqlRows.NEXT_INODE), counters.get(SqlRows.INODES),
                        counters.get(SqlRows.USED_BYTES));
            });
        }

        @Override
        public DumpedInode root() throws IOException {
            return read(connection -> {
                List<Xattr> xattrs = new ArrayList<>();
                try (Statement statement = connection.createStatement();
                        ResultSet rows = statement.executeQuery(ROOT_XATTRS)) {
                    while (rows.next()) {
                        xattrs.add(new Xattr(rows.getString(2), blob(rows, 3)));
                    }
                }
                try (Statement statement = connection.createStatement();
                        ResultSet rows = statement.executeQuery(ROOT)) {
                    if (!rows.next()) {
                        throw new SQLException("corrupt metastore: the root inode is missing");
                    }
                    return inode(rows, 1, xattrs);
                }
            });
        }

        @Override
        public List<DumpEntry> page(long dir, String after, int limit) throws IOException {
            return read(connection -> {
                // names, inode numbers and the inode rows (or nulls, for an entry without one)
                List<String> names = new ArrayList<>();
                List<Long> inos = new ArrayList<>();
                List<DumpedInode> nodes = new ArrayList<>();
                PreparedStatement statement = connection.statement(after == null ? FIRST_PAGE : NEXT_PAGE);
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
                if (names.isEmpty()) {
                    return List.of();
                }
                Map<Long, List<Xattr>> xattrs = new HashMap<>();
                statement = connection.statement(PAGE_XATTRS);
                statement.setLong(1, dir);
                statement.setString(2, names.get(0));
                statement.setString(3, names.get(names.size() - 1));
                try (ResultSet result = statement.executeQuery()) {
                    while (result.next()) {
                        xattrs.computeIfAbsent(result.getLong(1), ino -> new ArrayList<>())
                                .add(new Xattr(result.getString(2), blob(result, 3)));
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
        public void close() throws IOException {
            IOException failure = new IOException("cannot close the dump's connections to " + dialect.describe());
            for (Connection connection : connections) {
                try {
                    dialect.rollback(connection);
                } catch (SQLException e) {
                    failure.addSuppressed(e);
                }
            }
            closeAll(connections, failure);
            connections.clear();
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        }

        private <T> T read(Read<T> read) throws IOException {
            Reader connection;
            try {
                connection = idle.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while dumping");
            }
            try {
                return read.run(connection);
            } catch (SQLException e) {
                throw new IOException("cannot dump " + dialect.describe() + ": " + e.getMessage(), e);
            } finally {
                idle.add(connection);
            }
        }

        @FunctionalInterface
        private interface Read<T> {
            T run(Reader connection) throws SQLException;
        }

        /** One reading connection and its prepared statements, used by one thread at a time. */
        private static final class Reader {
            final Connection connection;
            private final Map<String, PreparedStatement> statements = new HashMap<>();

            Reader(Connection connection) {
                this.connection = connection;
            }

            PreparedStatement statement(String sql) throws SQLException {
                PreparedStatement statement = statements.get(sql);
                if (statement == null) {
                    statement = connection.prepareStatement(sql);
                    statements.put(sql, statement);
                }
                return statement;
            }

            Statement createStatement() throws SQLException {
                return connection.createStatement();
            }
        }
    }

    /** One write transaction on one connection; see the class comment. */
    static final class Target implements LoadTarget {
        private static final String INSERT_INODE = "INSERT INTO inodes (ino, type, mode, uid, gid, atime_ns, mtime_ns, "
                + "ctime_ns, nlink, size, rdev, parent, name, ufs_version, synced_ns, target) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        private static final String INSERT_DENTRY = "INSERT INTO dentries (parent, name, ino, type) VALUES (?, ?, ?, ?)";
        private static final String INSERT_XATTR = "INSERT INTO xattrs (ino, name, value) VALUES (?, ?, ?)";

        private final SqlDialect dialect;
        private final Connection connection;
        private boolean inTransaction;

        Target(SqlDialect dialect) throws IOException {
            this.dialect = requireNonNull(dialect, "dialect is null");
            try {
                this.connection = dialect.connect();
            } catch (SQLException e) {
                throw new IOException("cannot load into " + dialect.describe() + ": " + e.getMessage(), e);
            }
        }

        @Override
        public String describe() {
            return dialect.describe();
        }

        @Override
        public int parallelism() {
            return 1; // one transaction: the parser runs ahead while it writes
        }

        @Override
        public Optional<String> nonEmpty() throws IOException {
            return run(() -> {
                try (Statement statement = connection.createStatement()) {
                    long inodes;
                    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM inodes")) {
                        rows.next();
                        inodes = rows.getLong(1);
                    }
                    if (inodes > 1) {
                        return Optional.of("it has " + inodes + " inodes");
                    }
                    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM xattrs")) {
                        rows.next();
                        if (rows.getLong(1) > 0) {
                            return Optional.of("its root directory has xattrs");
                        }
                    }
                    return Optional.empty();
                }
            });
        }

        @Override
        public void clear() throws IOException {
            transaction(() -> {
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("DELETE FROM dentries");
                    statement.executeUpdate("DELETE FROM xattrs");
                    statement.executeUpdate("DELETE FROM inodes WHERE ino <> " + Inode.ROOT);
                    statement.executeUpdate("DELETE FROM settings WHERE key <> '" + MetaStores.FORMAT_VERSION_KEY + "'");
                }
                long now = System.currentTimeMillis() * 1_000_000L;
                updateInode(new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, now, now, now, 2, 0, 0, Inode.ROOT,
                        "", null, Inode.NEVER_SYNCED));
                setCounters(new DumpCounters(Inode.ROOT + 1, 1, 0));
                return null;
            });
        }

        @Override
        public void begin() throws IOException {
            run(() -> {
                dialect.begin(connection, true);
                inTransaction = true;
                return null;
            });
        }

        @Override
        public void write(LoadBatch batch) throws IOException {
            run(() -> {
                try (PreparedStatement inodes = connection.prepareStatement(INSERT_INODE);
                        PreparedStatement dentries = connection.prepareStatement(INSERT_DENTRY);
                        PreparedStatement xattrs = connection.prepareStatement(INSERT_XATTR)) {
                    int xattrCount = 0;
                    for (DumpedInode node : batch.inodes()) {
                        Inode inode = node.inode();
                        storable(inode.name(), "name");
                        bindInode(inodes, inode, node.symlinkTarget());
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
                    inodes.executeBatch();
                    dentries.executeBatch();
                    if (xattrCount > 0) {
                        xattrs.executeBatch();
                    }
                }
                return null;
            });
        }

        @Override
        public void finish(Summary summary) throws IOException {
            run(() -> {
                updateInode(summary.root().inode());
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("DELETE FROM xattrs WHERE ino = " + Inode.ROOT);
                }
                try (PreparedStatement xattrs = connection.prepareStatement(INSERT_XATTR)) {
                    for (Xattr xattr : summary.root().xattrs()) {
                        xattrs.setLong(1, Inode.ROOT);
                        xattrs.setString(2, storable(xattr.name(), "xattr name"));
                        xattrs.setBytes(3, xattr.value());
                        xattrs.executeUpdate();
                    }
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
                setCounters(summary.counters());
                try (PreparedStatement settings = connection.prepareStatement(
                        dialect.upsert("settings", List.of("key"), List.of("value")))) {
                    for (Map.Entry<String, String> setting : summary.settings().entrySet()) {
                        settings.setString(1, storable(setting.getKey(), "setting"));
                        settings.setString(2, storable(setting.getValue(), "setting"));
                        settings.addBatch();
                    }
                    settings.executeBatch();
                }
                dialect.commit(connection);
                inTransaction = false;
                return null;
            });
        }

        @Override
        public void abort() throws IOException {
            if (inTransaction) {
                inTransaction = false;
                run(() -> {
                    dialect.rollback(connection);
                    return null;
                });
            }
        }

        @Override
        public void close() throws IOException {
            try {
                abort();
            } finally {
                run(() -> {
                    connection.close();
                    return null;
                });
            }
        }

        private void bindInode(PreparedStatement statement, Inode inode, String target) throws SQLException {
            statement.setLong(1, inode.ino());
            statement.setInt(2, inode.type().modeBits());
            statement.setInt(3, inode.mode());
            statement.setInt(4, inode.uid());
            statement.setInt(5, inode.gid());
            statement.setLong(6, inode.atimeNs());
            statement.setLong(7, inode.mtimeNs());
            statement.setLong(8, inode.ctimeNs());
            statement.setInt(9, inode.nlink());
            statement.setLong(10, inode.size());
            statement.setLong(11, inode.rdev());
            statement.setLong(12, inode.parent());
            statement.setString(13, inode.name());
            setText(statement, 14, inode.ufsVersion(), "UFS version");
            statement.setLong(15, inode.syncedNs());
            setText(statement, 16, target, "symlink target");
        }

        private void updateInode(Inode inode) throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement("UPDATE inodes SET mode = ?, uid = ?, "
                    + "gid = ?, atime_ns = ?, mtime_ns = ?, ctime_ns = ?, nlink = ?, size = ?, rdev = ?, "
                    + "ufs_version = ?, synced_ns = ? WHERE ino = ?")) {
                statement.setInt(1, inode.mode());
                statement.setInt(2, inode.uid());
                statement.setInt(3, inode.gid());
                statement.setLong(4, inode.atimeNs());
                statement.setLong(5, inode.mtimeNs());
                statement.setLong(6, inode.ctimeNs());
                statement.setInt(7, inode.nlink());
                statement.setLong(8, inode.size());
                statement.setLong(9, inode.rdev());
                setText(statement, 10, inode.ufsVersion(), "UFS version");
                statement.setLong(11, inode.syncedNs());
                statement.setLong(12, inode.ino());
                statement.executeUpdate();
            }
        }

        private void setCounters(DumpCounters counters) throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement(
                    "UPDATE counters SET value = ? WHERE name = ?")) {
                for (var counter : List.of(Map.entry(SqlRows.NEXT_INODE, counters.nextInode()),
                        Map.entry(SqlRows.INODES, counters.inodes()), Map.entry(SqlRows.USED_BYTES, counters.usedBytes()))) {
                    statement.setLong(1, counter.getValue());
                    statement.setString(2, counter.getKey());
                    statement.addBatch();
                }
                statement.executeBatch();
            }
        }

        private void setText(PreparedStatement statement, int index, String value, String what) throws SQLException {
            if (value == null) {
                statement.setNull(index, Types.VARCHAR);
            } else {
                statement.setString(index, storable(value, what));
            }
        }

        private String storable(String value, String what) throws SQLException {
            if (!Unicode.isWellFormed(value)) {
                throw new SQLException("the " + what + " \"" + Unicode.printable(value) + "\" cannot be stored in "
                        + dialect.describe() + ": it is not valid Unicode (an unpaired surrogate)");
            }
            return value;
        }

        private <T> T transaction(Work<T> work) throws IOException {
            return run(() -> {
                dialect.begin(connection, true);
                try {
                    T result = work.run();
                    dialect.commit(connection);
                    return result;
                } catch (SQLException | RuntimeException e) {
                    try {
                        dialect.rollback(connection);
                    } catch (SQLException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e;
                }
            });
        }

        private <T> T run(Work<T> work) throws IOException {
            try {
                return work.run();
            } catch (SQLException e) {
                throw new IOException("cannot load into " + dialect.describe() + ": " + e.getMessage(), e);
            }
        }

        @FunctionalInterface
        private interface Work<T> {
            T run() throws SQLException;
        }
    }
}
