package io.strata.meta.postgres;

import io.strata.meta.Inode;
import io.strata.meta.fsck.FsckTarget;

import java.io.IOException;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * fsck's scan and repairs for the PostgreSQL engine (the tables are in the header of
 * {@link PostgresMetaStore}), each repair one transaction through the store's pool. An inode's
 * names are the dentries that name it, so a link repair sets nlink only; the counters, spread
 * over rows, are set as one total in row 0 and zero in the others.
 */
final class PostgresFsck implements FsckTarget {
    private final PostgresTransactions transactions;

    PostgresFsck(PostgresTransactions transactions) {
        this.transactions = requireNonNull(transactions, "transactions is null");
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
        transactions.write(rows -> rows.update("UPDATE counters SET inodes = CASE WHEN shard = 0 THEN ? ELSE 0 END,"
                + " used_bytes = CASE WHEN shard = 0 THEN ? ELSE 0 END", inodes, usedBytes));
    }

    @Override
    public void close() {
        // the store's pool is the store's
    }
}
