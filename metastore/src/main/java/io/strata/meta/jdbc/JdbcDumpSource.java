package io.strata.meta.jdbc;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpEntry;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;
import io.strata.meta.jdbc.dialect.Connections;
import io.strata.meta.jdbc.dialect.ResultRow;
import io.strata.meta.jdbc.dialect.Session;
import io.strata.meta.jdbc.dialect.SqlDialect;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The source side of a dump of the JDBC engine: one consistent snapshot read on the dialect's
 * number of connections at once (how they come to share it is the dialect's
 * {@link SqlDialect#snapshot}). A directory page is one join of dentries and inodes, plus one
 * query of the xattrs of the page's inodes.
 */
final class JdbcDumpSource implements DumpSource {
    private static final String PAGE = "SELECT d.name, d.ino, i." + Columns.INODE_AND_TARGET.replace(", ", ", i.")
            + " FROM dentries d LEFT JOIN inodes i ON i.ino = d.ino WHERE d.parent = ?";
    private static final String FIRST_PAGE = PAGE + " ORDER BY d.name LIMIT ?";
    private static final String NEXT_PAGE = PAGE + " AND d.name > ? ORDER BY d.name LIMIT ?";

    private final SqlDialect dialect;
    private final List<Session> readers = new ArrayList<>();
    private final BlockingQueue<Session> idle;

    private JdbcDumpSource(SqlDialect dialect, List<Connection> connections) {
        this.dialect = dialect;
        this.idle = new ArrayBlockingQueue<>(connections.size());
        for (Connection connection : connections) {
            Session session = new Session(connection);
            readers.add(session);
            idle.add(session);
        }
    }

    static JdbcDumpSource open(SqlDialect dialect, Connections connections) throws IOException {
        try {
            return new JdbcDumpSource(dialect, dialect.snapshot(connections, dialect.dumpReaders()));
        } catch (SQLException e) {
            throw new IOException("cannot dump " + dialect.describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String consistency() {
        return "a consistent snapshot (read transactions on one snapshot)";
    }

    @Override
    public int parallelism() {
        return readers.size();
    }

    @Override
    public Map<String, String> settings() throws IOException {
        return read(session -> {
            Map<String, String> settings = new HashMap<>();
            try (ResultSet rows = session.prepare("SELECT \"key\", value FROM settings").executeQuery()) {
                while (rows.next()) {
                    settings.put(rows.getString(1), rows.getString(2));
                }
            }
            return settings;
        });
    }

    @Override
    public DumpCounters counters() throws IOException {
        return read(session -> {
            long[] usage = dialect.counters().read(session);
            return new DumpCounters(dialect.inodeNumbers().next(session), usage[0], usage[1]);
        });
    }

    @Override
    public DumpedInode root() throws IOException {
        return read(session -> {
            List<Xattr> xattrs = new ArrayList<>();
            try (ResultSet results = session.prepare("SELECT name, value FROM xattrs WHERE ino = " + Inode.ROOT
                    + " ORDER BY name").executeQuery()) {
                ResultRow row = dialect.rows(results);
                while (results.next()) {
                    xattrs.add(new Xattr(row.getString(1), Rows.blob(row, 2)));
                }
            }
            try (ResultSet results = session.prepare("SELECT " + Columns.INODE_AND_TARGET + " FROM inodes WHERE ino = "
                    + Inode.ROOT).executeQuery()) {
                if (!results.next()) {
                    throw new SQLException("corrupt metastore: the root inode is missing");
                }
                return inode(dialect.rows(results), 1, xattrs);
            }
        });
    }

    @Override
    public List<DumpEntry> page(long dir, String after, int limit) throws IOException {
        return read(session -> {
            // names, inode numbers and the inode rows (or nulls, for an entry without one)
            List<String> names = new ArrayList<>();
            List<Long> inos = new ArrayList<>();
            List<DumpedInode> nodes = new ArrayList<>();
            PreparedStatement statement = session.prepare(after == null ? FIRST_PAGE : NEXT_PAGE);
            statement.setLong(1, dir);
            if (after == null) {
                statement.setInt(2, limit);
            } else {
                statement.setString(2, after);
                statement.setInt(3, limit);
            }
            try (ResultSet results = statement.executeQuery()) {
                ResultRow row = dialect.rows(results);
                while (results.next()) {
                    names.add(row.getString(1));
                    inos.add(row.getLong(2));
                    row.getLong(3);
                    nodes.add(row.wasNull() ? null : inode(row, 3, List.of())); // null: no inode row
                }
            }
            if (names.isEmpty()) {
                return List.of();
            }
            Map<Long, List<Xattr>> xattrs = xattrs(session, inos);
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

    /** The xattrs of the page's inodes, in name order, by inode: one query, an index probe per inode. */
    private Map<Long, List<Xattr>> xattrs(Session session, List<Long> inos) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT ino, name, value FROM xattrs WHERE "
                + dialect.inList("ino", inos.size()) + " ORDER BY ino, name");
        dialect.bindList(statement, 1, "bigint", inos);
        Map<Long, List<Xattr>> xattrs = new HashMap<>();
        try (ResultSet results = statement.executeQuery()) {
            ResultRow row = dialect.rows(results);
            while (results.next()) {
                xattrs.computeIfAbsent(row.getLong(1), ino -> new ArrayList<>())
                        .add(new Xattr(row.getString(2), Rows.blob(row, 3)));
            }
        }
        return xattrs;
    }

    @Override
    public void close() throws IOException {
        IOException failure = new IOException("cannot close the dump's connections to " + dialect.describe());
        for (Session reader : readers) {
            try {
                reader.close(); // ends its transaction
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        readers.clear();
        if (failure.getSuppressed().length > 0) {
            throw failure;
        }
    }

    /** An inode from the 16 columns of {@link Columns#INODE_AND_TARGET} starting at {@code first}. */
    private static DumpedInode inode(ResultRow row, int first, List<Xattr> xattrs) throws SQLException {
        Inode inode = Columns.inode(row, first);
        String target = inode.type() == InodeType.SYMLINK ? row.getString(first + Columns.INODE_COUNT) : null;
        if (inode.type() == InodeType.SYMLINK && target == null) {
            throw new SQLException("corrupt metastore: symlink " + inode.ino() + " has no target");
        }
        return new DumpedInode(inode, target, xattrs);
    }

    private <T> T read(Read<T> read) throws IOException {
        Session session;
        try {
            session = idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while dumping");
        }
        try {
            return read.run(session);
        } catch (SQLException e) {
            throw new IOException("cannot dump " + dialect.describe() + ": " + e.getMessage(), e);
        } finally {
            idle.add(session);
        }
    }

    @FunctionalInterface
    private interface Read<T> {
        T run(Session session) throws SQLException;
    }
}
