package io.strata.meta.jdbc.dialect;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Inode numbers from PostgreSQL's sequence {@code inode_numbers}: taken outside every
 * transaction (no row every create waits for), so a rolled-back create leaves a gap.
 */
final class SequenceNumbers implements InodeNumbers {
    @Override
    public List<String> ddl() {
        return List.of(); // created in format(), where the first number is known
    }

    @Override
    public void format(Session session, long first) throws SQLException {
        try (var statement = session.connection().createStatement()) {
            statement.execute("CREATE SEQUENCE inode_numbers START WITH " + first);
        }
    }

    @Override
    public long[] take(Session session, int count) throws SQLException {
        long[] numbers = new long[count];
        PreparedStatement statement = session.prepare("SELECT nextval('inode_numbers') FROM generate_series(1, ?)");
        statement.setInt(1, count);
        try (ResultSet rows = statement.executeQuery()) {
            for (int i = 0; i < count && rows.next(); i++) {
                numbers[i] = rows.getLong(1);
            }
        }
        return numbers;
    }

    @Override
    public String inInsert() {
        return "nextval('inode_numbers')";
    }

    /** Sequences are outside snapshots: this is at least one more than any number in one. */
    @Override
    public long next(Session session) throws SQLException {
        try (ResultSet rows = session.prepare("SELECT last_value, is_called FROM inode_numbers").executeQuery()) {
            rows.next();
            return rows.getBoolean(2) ? rows.getLong(1) + 1 : rows.getLong(1);
        }
    }

    @Override
    public void reset(Session session, long next) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT setval('inode_numbers', ?, false)");
        statement.setLong(1, next);
        statement.executeQuery().close();
    }
}
