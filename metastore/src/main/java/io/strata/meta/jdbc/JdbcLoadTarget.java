package io.strata.meta.jdbc;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.VolumeFormat;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;
import io.strata.meta.dump.LoadBatch;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.dump.Unicode;
import io.strata.meta.jdbc.dialect.Session;
import io.strata.meta.jdbc.dialect.SqlDialect;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The target side of a load into the JDBC engine: batches of JDBC-batched inserts on the
 * dialect's number of writers, each a connection with one long transaction.
 *
 * <p>One writer (SQLite, one writer anyway): the whole load is that transaction; the end of the
 * load (the root, the nlink fixes, the counters, the next inode number, the settings) is its last
 * part, and a failure rolls it all back. Several (a server): the setting
 * {@link LoadTarget#LOADING_SETTING}, committed first, marks the volume; the writers commit at
 * the end, then one more transaction completes the volume and removes the mark, so a load cut
 * short between the commits shows; a failure empties the volume. The tables are analyzed at the
 * end where the dialect wants it, so the planner knows their new size.
 */
final class JdbcLoadTarget implements LoadTarget {
    private static final List<String> ANALYZED = List.of("inodes", "dentries", "xattrs");

    private final SqlDialect dialect;
    private final Transactions transactions;
    private final List<Session> writers = new ArrayList<>();
    private final BlockingQueue<Session> idle;

    JdbcLoadTarget(SqlDialect dialect, Transactions transactions) {
        this.dialect = dialect;
        this.transactions = transactions;
        this.idle = new ArrayBlockingQueue<>(dialect.loadWriters());
    }

    @Override
    public String describe() {
        return dialect.describe();
    }

    @Override
    public int parallelism() {
        return dialect.loadWriters();
    }

    @Override
    public Optional<String> nonEmpty() throws IOException {
        return transactions.read(rows -> {
            if (rows.setting(LOADING_SETTING).isPresent()) {
                return Optional.of("a load into it did not finish");
            }
            try (Statement statement = rows.session().connection().createStatement();
                    ResultSet result = statement.executeQuery("SELECT (SELECT COUNT(*) FROM inodes), "
                            + "(SELECT COUNT(*) FROM xattrs WHERE ino = " + Inode.ROOT + ")")) {
                result.next();
                if (result.getLong(1) > 1) {
                    return Optional.of("it has " + result.getLong(1) + " inodes");
                }
                if (result.getLong(2) > 0) {
                    return Optional.of("its root directory has xattrs");
                }
                return Optional.empty();
            }
        });
    }

    @Override
    public void clear() throws IOException {
        transactions.write(rows -> {
            try (Statement statement = rows.session().connection().createStatement()) {
                statement.executeUpdate(dialect.emptyTable("dentries"));
                statement.executeUpdate(dialect.emptyTable("xattrs"));
                statement.executeUpdate("DELETE FROM inodes WHERE ino <> " + Inode.ROOT);
                statement.executeUpdate("DELETE FROM settings WHERE \"key\" <> '" + VolumeFormat.VERSION_KEY + "'");
            }
            updateRoot(rows.session(), Schema.root(System.currentTimeMillis() * 1_000_000L));
            setCounters(rows.session(), new DumpCounters(Inode.ROOT + 1, 1, 0));
            return null;
        });
    }

    @Override
    public void begin() throws IOException {
        if (parallelism() > 1) {
            transactions.write(rows -> {
                rows.putSetting(LOADING_SETTING, "strata load began at " + Instant.now());
                return null;
            });
        }
        try {
            for (int i = 0; i < parallelism(); i++) {
                Session writer = new Session(transactions.connections().separate());
                writers.add(writer);
                dialect.begin(writer, true);
                idle.add(writer);
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    @Override
    public void write(LoadBatch batch) throws IOException {
        Session writer = take();
        try {
            PreparedStatement inodes = writer.prepare(Columns.INSERT_INODE);
            PreparedStatement dentries = writer.prepare(Columns.INSERT_DENTRY);
            PreparedStatement xattrs = writer.prepare(Columns.INSERT_XATTR);
            int xattrCount = 0;
            for (DumpedInode node : batch.inodes()) {
                Inode inode = node.inode();
                storable(inode.name(), "name");
                storableOrNull(inode.ufsVersion(), "UFS version");
                storableOrNull(node.symlinkTarget(), "symlink target");
                Columns.bindInode(inodes, inode, node.symlinkTarget());
                inodes.addBatch();
                for (Xattr xattr : node.xattrs()) {
                    bindXattr(xattrs, inode.ino(), xattr);
                    xattrs.addBatch();
                    xattrCount++;
                }
            }
            for (LoadBatch.Name name : batch.names()) {
                Dentry dentry = name.dentry();
                storable(dentry.name(), "name");
                Columns.bindDentry(dentries, dentry);
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
            throw failure(e);
        } finally {
            idle.add(writer);
        }
    }

    @Override
    public void finish(Summary summary) throws IOException {
        try {
            if (writers.size() == 1) {
                Session writer = writers.get(0);
                complete(writer, summary);
                dialect.commit(writer);
                return;
            }
            for (Session writer : writers) {
                dialect.commit(writer);
            }
        } catch (SQLException e) {
            throw failure(e);
        }
        transactions.write(rows -> {
            complete(rows.session(), summary);
            return null;
        });
        Optional<String> analyze = dialect.analyze(ANALYZED);
        if (analyze.isPresent()) {
            transactions.read(rows -> {
                try (Statement statement = rows.session().connection().createStatement()) {
                    statement.execute(analyze.get());
                }
                return null;
            });
        }
    }

    /** What only the end of a load knows: the root, the nlink fixes, the counters, the settings. */
    private void complete(Session session, Summary summary) throws SQLException {
        DumpedInode root = summary.root();
        updateRoot(session, root.inode());
        try (Statement statement = session.connection().createStatement()) {
            statement.executeUpdate("DELETE FROM xattrs WHERE ino = " + Inode.ROOT);
        }
        PreparedStatement xattrs = session.prepare(Columns.INSERT_XATTR);
        for (Xattr xattr : root.xattrs()) {
            bindXattr(xattrs, Inode.ROOT, xattr);
            xattrs.addBatch();
        }
        if (!root.xattrs().isEmpty()) {
            xattrs.executeBatch();
        }
        PreparedStatement nlink = session.prepare("UPDATE inodes SET nlink = ? WHERE ino = ?");
        PreparedStatement primary = session.prepare("UPDATE inodes SET nlink = ?, parent = ?, name = ? WHERE ino = ?");
        int nlinks = 0;
        int primaries = 0;
        for (LinkFix fix : summary.fixes()) {
            if (fix.movesPrimary()) {
                primary.setInt(1, fix.nlink());
                primary.setLong(2, fix.parent());
                primary.setString(3, fix.name());
                primary.setLong(4, fix.ino());
                primary.addBatch();
                primaries++;
            } else {
                nlink.setInt(1, fix.nlink());
                nlink.setLong(2, fix.ino());
                nlink.addBatch();
                nlinks++;
            }
        }
        if (nlinks > 0) {
            nlink.executeBatch();
        }
        if (primaries > 0) {
            primary.executeBatch();
        }
        setCounters(session, summary.counters());
        PreparedStatement settings = session.prepare(dialect.upsert("settings", List.of("\"key\""), List.of("value")));
        for (Map.Entry<String, String> setting : summary.settings().entrySet()) {
            settings.setString(1, storable(setting.getKey(), "setting"));
            settings.setString(2, storable(setting.getValue(), "setting"));
            settings.addBatch();
        }
        if (!summary.settings().isEmpty()) {
            settings.executeBatch();
        }
        PreparedStatement unmark = session.prepare("DELETE FROM settings WHERE \"key\" = ?");
        unmark.setString(1, LOADING_SETTING);
        unmark.executeUpdate();
    }

    @Override
    public void abort() throws IOException {
        for (Session writer : writers) {
            try {
                dialect.rollback(writer);
            } catch (SQLException e) {
                // the connection may be what failed; the volume is emptied below all the same
            }
        }
        if (writers.size() != 1) {
            clear(); // writers that committed, or a mark: one writer's rollback already left it as it was, empty
        }
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Session writer : writers) {
            try {
                writer.close(); // a transaction still open rolls back
            } catch (SQLException e) {
                if (failure == null) {
                    failure = failure(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        writers.clear();
        idle.clear();
        if (failure != null) {
            throw failure;
        }
    }

    private static void updateRoot(Session session, Inode root) throws SQLException {
        PreparedStatement statement = session.prepare("UPDATE inodes SET mode = ?, uid = ?, gid = ?, atime_ns = ?, "
                + "mtime_ns = ?, ctime_ns = ?, nlink = ?, size = ?, rdev = ?, ufs_version = ?, synced_ns = ? WHERE ino = ?");
        Object[] values = {root.mode(), root.uid(), root.gid(), root.atimeNs(), root.mtimeNs(), root.ctimeNs(),
            root.nlink(), root.size(), root.rdev(), root.ufsVersion(), root.syncedNs(), root.ino()};
        for (int i = 0; i < values.length; i++) {
            Columns.bind(statement, i + 1, values[i]);
        }
        statement.executeUpdate();
    }

    private void setCounters(Session session, DumpCounters counters) throws SQLException {
        dialect.counters().set(session, counters.inodes(), counters.usedBytes());
        dialect.inodeNumbers().reset(session, counters.nextInode());
    }

    private void bindXattr(PreparedStatement statement, long ino, Xattr xattr) throws SQLException {
        statement.setLong(1, ino);
        statement.setString(2, storable(xattr.name(), "xattr name"));
        statement.setBytes(3, xattr.value());
    }

    private void storableOrNull(String value, String what) throws SQLException {
        if (value != null) {
            storable(value, what);
        }
    }

    private String storable(String value, String what) throws SQLException {
        Optional<String> problem = Unicode.isWellFormed(value)
                ? dialect.unstorable(value) : Optional.of("is not valid Unicode (an unpaired surrogate)");
        if (problem.isPresent()) {
            throw new SQLException("the " + what + " \"" + Unicode.printable(value) + "\" cannot be stored in "
                    + dialect.describe() + ": it " + problem.get());
        }
        return value;
    }

    private Session take() throws InterruptedIOException {
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    /** A batch failure's own message names only the first statement; the cause says what went wrong. */
    private IOException failure(SQLException e) {
        SQLException next = e.getNextException();
        return new IOException("cannot load into " + dialect.describe() + ": "
                + (next != null ? next.getMessage() : e.getMessage()), e);
    }
}
