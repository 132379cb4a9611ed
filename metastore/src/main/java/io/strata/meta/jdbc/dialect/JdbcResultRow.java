package io.strata.meta.jdbc.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;

import static java.util.Objects.requireNonNull;

/** A {@link ResultRow} through JDBC's getters, for any driver. */
record JdbcResultRow(ResultSet results) implements ResultRow {
    JdbcResultRow {
        requireNonNull(results, "results is null");
    }

    @Override
    public long getLong(int column) throws SQLException {
        return results.getLong(column);
    }

    @Override
    public int getInt(int column) throws SQLException {
        return results.getInt(column);
    }

    @Override
    public String getString(int column) throws SQLException {
        return results.getString(column);
    }

    @Override
    public byte[] getBytes(int column) throws SQLException {
        return results.getBytes(column);
    }

    @Override
    public boolean wasNull() throws SQLException {
        return results.wasNull();
    }
}
