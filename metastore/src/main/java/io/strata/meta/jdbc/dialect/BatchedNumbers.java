package io.strata.meta.jdbc.dialect;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Inode numbers from the one row of {@code inode_numbers (next_inode BIGINT)}, taken
 * {@value #BATCH} at a time in a statement of their own, outside the transactions that use them
 * (as JuiceFS's SQL engine does): no create waits for another client's to commit, and most cost
 * no round trip. {@code LAST_INSERT_ID(expr)} hands the new value back on the same connection
 * (MariaDB, MySQL, TiDB). Numbers a store took but did not use are skipped for good.
 */
final class BatchedNumbers implements InodeNumbers {
    static final int BATCH = 1000;

    private long next;
    private long end; // exclusive: the batch at hand is [next, end)

    @Override
    public List<String> ddl() {
        return List.of("CREATE TABLE inode_numbers (next_inode BIGINT NOT NULL)");
    }

    @Override
    public void format(Session session, long first) throws SQLException {
        PreparedStatement statement = session.prepare("INSERT INTO inode_numbers (next_inode) VALUES (?)");
        statement.setLong(1, first);
        statement.executeUpdate();
    }

    @Override
    public synchronized long[] take(Session session, int count) {
        if (end - next < count) {
            throw new Exhausted(count);
        }
        long[] numbers = new long[count];
        for (int i = 0; i < count; i++) {
            numbers[i] = next++;
        }
        return numbers;
    }

    @Override
    public void refill(Session session, int count) throws SQLException {
        long size = Math.max(BATCH, count);
        PreparedStatement advance = session.prepare(
                "UPDATE inode_numbers SET next_inode = LAST_INSERT_ID(next_inode + ?)");
        advance.setLong(1, size);
        if (advance.executeUpdate() != 1) {
            throw new SQLException("corrupt metastore: inode_numbers does not have one row");
        }
        long top;
        try (ResultSet rows = session.prepare("SELECT LAST_INSERT_ID()").executeQuery()) {
            rows.next();
            top = rows.getLong(1);
        }
        synchronized (this) {
            next = top - size;
            end = top;
        }
    }

    @Override
    public long next(Session session) throws SQLException {
        try (ResultSet rows = session.prepare("SELECT next_inode FROM inode_numbers").executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("corrupt metastore: inode_numbers is empty");
            }
            return rows.getLong(1);
        }
    }

    /** Also drops the batch at hand, which may hold numbers the load has used. */
    @Override
    public void reset(Session session, long next) throws SQLException {
        PreparedStatement statement = session.prepare("UPDATE inode_numbers SET next_inode = ?");
        statement.setLong(1, next);
        statement.executeUpdate();
        synchronized (this) {
            this.next = 0;
            this.end = 0;
        }
    }
}
