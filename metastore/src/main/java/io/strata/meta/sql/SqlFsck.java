package io.strata.meta.sql;

import io.strata.meta.Inode;
import io.strata.meta.fsck.FsckTarget;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * fsck's scan and repairs for the SQL engine (the tables are in the header of
 * {@link SqlMetaStore}), on a connection of its own, each call one transaction. An inode's names
 * are the dentries that name it (found through {@code dentries_by_ino}), so setting its nlink is
 * all a link repair needs.
 */
final class SqlFsck implements FsckTarget {
    private final SqlDialect dialect;
    private final Connection connection;
    private final SqlRows rows;

    SqlFsck(SqlDialect dialect) throws IOException {
        this.dialect = requireNonNull(dialect, "dialect is null");
        try {
            this.connection = dialect.connect();
        } catch (SQLException e) {
            throw new IOException("cannot open " + dialect.describe() + " for fsck: " + e.getMessage(), e);
        }
        this.rows = new SqlRows(connection, dialect);
    }

    @Override
    public List<Inode> inodes(long after, int limit) throws IOException {
        return transaction(false, () -> rows.inodesAfter(after, limit));
    }

    @Override
    public void setLinks(long ino, int nlink, List<Link> names) throws IOException {
        transaction(true, () -> rows.update("UPDATE inodes SET nlink = ? WHERE ino = ?", nlink, ino));
    }

    @Override
    public void setPrimaryLink(long ino, Link primary) throws IOException {
        transaction(true, () -> {
            rows.setPrimaryLink(ino, primary.parent(), primary.name());
            return null;
        });
    }

    @Override
    public void removeEntry(long parent, String name) throws IOException {
        transaction(true, () -> {
            rows.deleteDentry(parent, name);
            return null;
        });
    }

    @Override
    public void removeInode(long ino) throws IOException {
        transaction(true, () -> {
            rows.update("DELETE FROM dentries WHERE parent = ?", ino);
            rows.update("DELETE FROM xattrs WHERE ino = ?", ino);
            return rows.update("DELETE FROM inodes WHERE ino = ?", ino);
        });
    }

    @Override
    public void setCounters(long inodes, long usedBytes) throws IOException {
        transaction(true, () -> {
            rows.setCounter(SqlRows.INODES, inodes);
            rows.setCounter(SqlRows.USED_BYTES, usedBytes);
            return null;
        });
    }

    @Override
    public void close() throws IOException {
        try (Connection ignored = connection) {
            rows.close();
        } catch (SQLException e) {
            throw new IOException("cannot close fsck's connection to " + dialect.describe() + ": " + e.getMessage(), e);
        }
    }

    private <T> T transaction(boolean write, Work<T> work) throws IOException {
        try {
            dialect.begin(connection, write);
            T result = work.run();
            dialect.commit(connection);
            return result;
        } catch (SQLException e) {
            try {
                dialect.rollback(connection);
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IOException("fsck of " + dialect.describe() + " failed: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Work<T> {
        T run() throws SQLException;
    }
}
