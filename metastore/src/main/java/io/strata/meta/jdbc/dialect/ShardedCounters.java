package io.strata.meta.jdbc.dialect;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Usage in {@code counters (shard INTEGER PK, inodes BIGINT, used_bytes BIGINT)}, {@value #SHARDS}
 * rows: a transaction adds its deltas to one chosen at random, a read adds them up, so that no
 * single row is every writer's lock (PostgreSQL, MariaDB). The root's inode is counted in shard 0.
 */
final class ShardedCounters implements UsageCounters {
    /** Rows in the counters table. */
    static final int SHARDS = 16;

    @Override
    public List<String> ddl() {
        return List.of("CREATE TABLE counters (shard INTEGER NOT NULL PRIMARY KEY, inodes BIGINT NOT NULL, "
                + "used_bytes BIGINT NOT NULL)");
    }

    @Override
    public void format(Session session) throws SQLException {
        PreparedStatement statement = session.prepare("INSERT INTO counters (shard, inodes, used_bytes) VALUES (?, ?, 0)");
        for (int shard = 0; shard < SHARDS; shard++) {
            statement.setInt(1, shard);
            statement.setLong(2, shard == 0 ? 1 : 0);
            statement.executeUpdate();
        }
    }

    @Override
    public void add(Session session, long inodes, long usedBytes) throws SQLException {
        if (inodes == 0 && usedBytes == 0) {
            return;
        }
        int shard = ThreadLocalRandom.current().nextInt(SHARDS);
        PreparedStatement statement = session.prepare(
                "UPDATE counters SET inodes = inodes + ?, used_bytes = used_bytes + ? WHERE shard = ?");
        statement.setLong(1, inodes);
        statement.setLong(2, usedBytes);
        statement.setInt(3, shard);
        if (statement.executeUpdate() != 1) {
            throw new SQLException("counter row " + shard + " is missing");
        }
    }

    @Override
    public long[] read(Session session) throws SQLException {
        try (ResultSet rows = session.prepare(
                "SELECT COALESCE(SUM(inodes), 0), COALESCE(SUM(used_bytes), 0) FROM counters").executeQuery()) {
            rows.next();
            return new long[] {rows.getLong(1), rows.getLong(2)};
        }
    }

    /** The totals go to shard 0, the other rows to zero. */
    @Override
    public void set(Session session, long inodes, long usedBytes) throws SQLException {
        PreparedStatement statement = session.prepare("UPDATE counters SET inodes = CASE WHEN shard = 0 THEN ? ELSE 0 END,"
                + " used_bytes = CASE WHEN shard = 0 THEN ? ELSE 0 END");
        statement.setLong(1, inodes);
        statement.setLong(2, usedBytes);
        statement.executeUpdate();
    }
}
