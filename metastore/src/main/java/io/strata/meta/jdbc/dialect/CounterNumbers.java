package io.strata.meta.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Inode numbers from the {@value #NEXT_INODE} row of SQLite's {@code counters} table (see
 * {@link NamedCounters}), advanced inside the write transaction: the one writer holds it anyway,
 * and a rolled-back create gives its number back.
 */
final class CounterNumbers implements InodeNumbers {
    static final String NEXT_INODE = "next_inode";

    @Override
    public List<String> ddl() {
        return List.of(); // a row of the counters table
    }

    @Override
    public void format(Session session, long first) throws SQLException {
        NamedCounters.insert(session, NEXT_INODE, first);
    }

    @Override
    public long[] take(Session session, int count) throws SQLException {
        // increment first: the UPDATE holds the counter until commit
        NamedCounters.update(session, "UPDATE counters SET value = value + ? WHERE name = ?", NEXT_INODE, count);
        long top = next(session);
        long[] numbers = new long[count];
        for (int i = 0; i < count; i++) {
            numbers[i] = top - count + i;
        }
        return numbers;
    }

    @Override
    public long next(Session session) throws SQLException {
        var statement = session.prepare("SELECT value FROM counters WHERE name = ?");
        statement.setString(1, NEXT_INODE);
        try (ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("corrupt metastore: counter " + NEXT_INODE + " is missing");
            }
            return rows.getLong(1);
        }
    }

    @Override
    public void reset(Session session, long next) throws SQLException {
        NamedCounters.update(session, "UPDATE counters SET value = ? WHERE name = ?", NEXT_INODE, next);
    }
}
