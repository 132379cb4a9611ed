package io.strata.meta.jdbc.dialect;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Usage in {@code counters (name VARCHAR(64) PK, value BIGINT)}, rows {@value #INODES} and
 * {@value #USED_BYTES} (and {@code next_inode}, see {@link CounterNumbers}): where one writer at a
 * time holds the whole database (SQLite), a hot row costs nothing.
 */
final class NamedCounters implements UsageCounters {
    static final String INODES = "inodes";
    static final String USED_BYTES = "used_bytes";
    private static final String ADD = "UPDATE counters SET value = value + ? WHERE name = ?";
    private static final String SET = "UPDATE counters SET value = ? WHERE name = ?";

    @Override
    public List<String> ddl() {
        return List.of("CREATE TABLE counters (name VARCHAR(64) NOT NULL PRIMARY KEY, "
                + "value BIGINT NOT NULL)");
    }

    @Override
    public void format(Session session) throws SQLException {
        insert(session, INODES, 1);
        insert(session, USED_BYTES, 0);
    }

    @Override
    public void add(Session session, long inodes, long usedBytes) throws SQLException {
        if (inodes != 0) {
            update(session, ADD, INODES, inodes);
        }
        if (usedBytes != 0) {
            update(session, ADD, USED_BYTES, usedBytes);
        }
    }

    @Override
    public long[] read(Session session) throws SQLException {
        long[] usage = {-1, -1};
        try (ResultSet rows = session.prepare("SELECT name, value FROM counters WHERE name IN ('" + INODES
                + "', '" + USED_BYTES + "')").executeQuery()) {
            while (rows.next()) {
                usage[INODES.equals(rows.getString(1)) ? 0 : 1] = rows.getLong(2);
            }
        }
        if (usage[0] < 0 || usage[1] < 0) {
            throw new SQLException("corrupt metastore: counter " + (usage[0] < 0 ? INODES : USED_BYTES) + " is missing");
        }
        return usage;
    }

    @Override
    public void set(Session session, long inodes, long usedBytes) throws SQLException {
        update(session, SET, INODES, inodes);
        update(session, SET, USED_BYTES, usedBytes);
    }

    /** One counter row by name: {@code name} is a constant of this package. */
    static void insert(Session session, String name, long value) throws SQLException {
        PreparedStatement statement = session.prepare("INSERT INTO counters (name, value) VALUES (?, ?)");
        statement.setString(1, name);
        statement.setLong(2, value);
        statement.executeUpdate();
    }

    static void update(Session session, String sql, String name, long value) throws SQLException {
        PreparedStatement statement = session.prepare(sql);
        statement.setLong(1, value);
        statement.setString(2, name);
        if (statement.executeUpdate() != 1) {
            throw new SQLException("counter " + name + " is missing");
        }
    }
}
