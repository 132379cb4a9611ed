package io.strata.meta.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The current row of a query's result, read by column number (from 1): the getters the
 * metastore's row mappers use. {@link #of} reads through JDBC's {@link ResultSet}; an engine may
 * read its rows its own way ({@link SqlDialect#rows}), as SQLite does.
 */
public interface ResultRow {
    long getLong(int column) throws SQLException;

    int getInt(int column) throws SQLException;

    /** The column as text; null for SQL NULL. */
    String getString(int column) throws SQLException;

    /** The column as bytes; null for SQL NULL (and, with some drivers, for an empty BLOB). */
    byte[] getBytes(int column) throws SQLException;

    /** Whether the column read last was SQL NULL. */
    boolean wasNull() throws SQLException;

    /** The rows of {@code results}, as its JDBC getters read them. */
    static ResultRow of(ResultSet results) {
        return new JdbcResultRow(results);
    }
}
