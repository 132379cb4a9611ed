package io.strata.meta.jdbc;

import io.strata.meta.Inode;
import io.strata.meta.fsck.FsckTarget;
import io.strata.meta.jdbc.dialect.SqlDialect;

import java.io.IOException;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * fsck's scan and repairs for the JDBC engine (the tables are in package-info), each repair one
 * transaction of the store's. An inode's names are the dentries that name it (found through
 * {@code dentries_by_ino}), so a link repair sets nlink only; the usage goes to the dialect's
 * counters as totals.
 */
final class JdbcFsck implements FsckTarget {
    private final SqlDialect dialect;
    private final Transactions transactions;

    JdbcFsck(SqlDialect dialect, Transactions transactions) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
    }

    @Override
    public List<String> storageDamage() throws IOException {
        return transactions.read(rows -> dialect.storageDamage(rows.session()));
    }

    @Override
    public void rebuildIndexes() throws IOException {
        transactions.write(rows -> {
            dialect.rebuildIndexes(rows.session());
            return null;
        });
    }

    @Override
    public List<Inode> inodes(long after, int limit) throws IOException {
        return transactions.read(rows -> rows.inodesAfter(after, limit));
    }

    @Override
    public void setLinks(long ino, int nlink, List<Link> names) throws IOException {
        transactions.write(rows -> rows.update("UPDATE inodes SET nlink = ? WHERE ino = ?", nlink, ino));
    }

    @Override
    public void setPrimaryLink(long ino, Link primary) throws IOException {
        transactions.write(rows -> {
            rows.setPrimaryLink(ino, primary.parent(), primary.name());
            return null;
        });
    }

    @Override
    public void removeEntry(long parent, String name) throws IOException {
        transactions.write(rows -> {
            rows.deleteDentry(parent, name);
            return null;
        });
    }

    @Override
    public void removeInode(long ino) throws IOException {
        transactions.write(rows -> {
            rows.update("DELETE FROM dentries WHERE parent = ?", ino);
            rows.update("DELETE FROM xattrs WHERE ino = ?", ino);
            return rows.update("DELETE FROM inodes WHERE ino = ?", ino);
        });
    }

    @Override
    public void setCounters(long inodes, long usedBytes) throws IOException {
        transactions.write(rows -> {
            dialect.counters().set(rows.session(), inodes, usedBytes);
            return null;
        });
    }

    @Override
    public void close() {
        // the store's connections are the store's
    }
}
