package io.strata.meta.jdbc.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** SQL text and JDBC steps more than one dialect writes the same way. */
final class Syntax {
    private Syntax() {}

    /** "INSERT INTO table (keys, values) VALUES (?, ...)": an upsert's start, the dialect adds what a taken key does. */
    static StringBuilder insert(String table, List<String> keyColumns, List<String> valueColumns) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (");
        sql.append(String.join(", ", keyColumns)).append(", ").append(String.join(", ", valueColumns));
        return sql.append(") VALUES (").append("?, ".repeat(keyColumns.size() + valueColumns.size() - 1)).append("?)");
    }

    /** The {@code ON CONFLICT ... DO UPDATE} upsert (SQLite 3.24+, PostgreSQL 9.5+). */
    static String onConflictUpsert(String table, List<String> keyColumns, List<String> valueColumns) {
        StringBuilder sql = insert(table, keyColumns, valueColumns);
        sql.append(" ON CONFLICT (").append(String.join(", ", keyColumns)).append(") DO UPDATE SET ");
        for (int i = 0; i < valueColumns.size(); i++) {
            String column = valueColumns.get(i);
            sql.append(i == 0 ? "" : ", ").append(column).append(" = excluded.").append(column);
        }
        return sql.toString();
    }

    /**
     * "column IN (?, ?, ...)" with the count rounded up to a power of two, so that a statement
     * cache holds a few texts rather than one per count; {@link #bindParameterList} repeats the
     * last value into the padding.
     */
    static String parameterList(String column, int count) {
        int padded = padded(count);
        return column + " IN (" + "?, ".repeat(padded - 1) + "?)";
    }

    static int bindParameterList(PreparedStatement statement, int index, List<?> values) throws SQLException {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("an empty list");
        }
        int padded = padded(values.size());
        for (int i = 0; i < padded; i++) {
            statement.setObject(index + i, values.get(Math.min(i, values.size() - 1)));
        }
        return index + padded;
    }

    private static int padded(int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("an empty list");
        }
        return Integer.highestOneBit(count) == count ? count : Integer.highestOneBit(count) << 1;
    }

    /**
     * {@code readers} connections whose transactions {@code start} begins while another holds
     * every writer back (between {@code hold} and {@code release}): so they all see one snapshot.
     */
    static List<Connection> gatedSnapshot(Connections connections, int readers, String hold, String release,
            ReaderStart start) throws SQLException {
        List<Connection> opened = new ArrayList<>();
        try (Connection gate = connections.separate()) {
            execute(gate, hold);
            try {
                for (int i = 0; i < readers; i++) {
                    Connection reader = connections.separate();
                    opened.add(reader);
                    start.start(reader);
                }
            } finally {
                execute(gate, release);
            }
            return opened;
        } catch (SQLException | RuntimeException e) {
            closeAll(opened, e);
            throw e;
        }
    }

    /** Begins a reader's transaction and its snapshot. */
    @FunctionalInterface
    interface ReaderStart {
        void start(Connection reader) throws SQLException;
    }

    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    static void closeAll(List<Connection> connections, Throwable failure) {
        for (Connection connection : connections) {
            try {
                connection.close();
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
    }
}
