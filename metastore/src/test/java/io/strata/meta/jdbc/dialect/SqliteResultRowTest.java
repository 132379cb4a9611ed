package io.strata.meta.jdbc.dialect;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQLite's rows read from the statement itself answer as sqlite-jdbc's getters do, value for value,
 * NULLs and all, on a real database file.
 */
final class SqliteResultRowTest {
    private static final String SELECT = "SELECT n, i, s, b FROM t ORDER BY n";

    @TempDir
    Path dir;

    private SqliteDialect dialect;

    @BeforeEach
    void createTable() throws SQLException {
        dialect = new SqliteDialect(dir.resolve("t.db"));
        try (Connection connection = dialect.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (n BIGINT PRIMARY KEY, i INTEGER, s TEXT, b BLOB)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
                insertRow(insert, Long.MAX_VALUE, Integer.MIN_VALUE, "naïve ☃ name", new byte[] {0, -1, 7});
                insertRow(insert, -1, 0, "", new byte[0]);
                insertRow(insert, 3, null, null, null);
            }
        }
    }

    @Test
    void everyColumnReadsAsTheDriversGetterReadsIt() throws SQLException {
        try (Connection connection = dialect.connect()) {
            List<String> driver = readAll(connection, ResultRow::of);
            List<String> direct = readAll(connection, results -> dialect.rows(results));
            assertEquals(3, direct.size());
            assertEquals(driver, direct);
        }
    }

    @Test
    void aNullColumnReadsAsNullOrZeroAndIsReportedNull() throws SQLException {
        try (Connection connection = dialect.connect();
             PreparedStatement query = connection.prepareStatement("SELECT i, s, b FROM t WHERE n = 3");
             ResultSet results = query.executeQuery()) {
            ResultRow row = dialect.rows(results);
            assertInstanceOf(SqliteResultRow.class, row);
            assertTrue(results.next());
            assertEquals(0, row.getInt(1));
            assertTrue(row.wasNull());
            assertNull(row.getString(2));
            assertNull(row.getBytes(3));
            assertTrue(row.wasNull());
        }
    }

    @Test
    void anEmptyResultHasARowReaderToo() throws SQLException {
        try (Connection connection = dialect.connect();
             PreparedStatement query = connection.prepareStatement(SELECT.replace("ORDER BY", "WHERE n = 42 ORDER BY"));
             ResultSet results = query.executeQuery()) {
            assertInstanceOf(SqliteResultRow.class, dialect.rows(results), "the mappers' loops take it before next()");
            assertFalse(results.next());
        }
    }

    @Test
    void aColumnOutsideTheStatementIsRefused() throws SQLException {
        try (Connection connection = dialect.connect();
             PreparedStatement query = connection.prepareStatement(SELECT);
             ResultSet results = query.executeQuery()) {
            ResultRow row = dialect.rows(results);
            assertTrue(results.next());
            assertThrows(SQLException.class, () -> row.getLong(0));
            assertThrows(SQLException.class, () -> row.getLong(5));
        }
    }

    @Test
    void aClosedStatementIsRefused() throws SQLException {
        try (Connection connection = dialect.connect()) {
            PreparedStatement query = connection.prepareStatement(SELECT);
            ResultSet results = query.executeQuery();
            ResultRow row = dialect.rows(results);
            assertTrue(results.next());
            query.close();
            assertThrows(SQLException.class, () -> row.getLong(1));
        }
    }

    @Test
    void blobBytesArriveIntact() throws SQLException {
        try (Connection connection = dialect.connect();
             PreparedStatement query = connection.prepareStatement("SELECT b FROM t WHERE n = " + Long.MAX_VALUE);
             ResultSet results = query.executeQuery()) {
            ResultRow row = dialect.rows(results);
            assertTrue(results.next());
            assertArrayEquals(new byte[] {0, -1, 7}, row.getBytes(1));
        }
    }

    private interface Rows {
        ResultRow of(ResultSet results) throws SQLException;
    }

    /** Each row's columns, through {@code rows}, as text with each value's kind. */
    private static List<String> readAll(Connection connection, Rows rows) throws SQLException {
        List<String> read = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(SELECT); ResultSet results = query.executeQuery()) {
            ResultRow row = rows.of(results);
            while (results.next()) {
                StringBuilder line = new StringBuilder();
                for (int column = 1; column <= 4; column++) {
                    line.append(row.getLong(column)).append(row.wasNull() ? "(null)" : "").append(' ')
                            .append(row.getInt(column)).append(' ')
                            .append(row.getString(column)).append(' ');
                    byte[] bytes = row.getBytes(column);
                    line.append(bytes == null ? "null" : new String(bytes, StandardCharsets.ISO_8859_1)).append(" | ");
                }
                read.add(line.toString());
            }
        }
        return read;
    }

    private static void insertRow(PreparedStatement insert, long n, Integer i, String s, byte[] b) throws SQLException {
        insert.setLong(1, n);
        insert.setObject(2, i);
        insert.setString(3, s);
        insert.setBytes(4, b);
        insert.executeUpdate();
    }
}
