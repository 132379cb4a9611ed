package io.strata.meta.sql;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between the SQL databases {@link SqlMetaStore} runs on: connecting, column types,
 * transactions and the few statements without one portable form. Everything else the engine
 * writes in portable SQL.
 */
public interface SqlDialect {
    /** Opens the one connection the store uses, configured for it (journal, timeouts), in auto-commit mode. */
    Connection connect() throws IOException, SQLException;

    /**
     * Where the database is, for messages: never includes a password.
     */
    String describe();

    /**
     * The type of a name column (dentry and xattr names). Its ordering must be a fixed, total
     * order of the names' bytes, not a locale's, because readdir pages with {@code name > ?}.
     */
    String nameType();

    /** The type of an arbitrary byte string column (xattr values). */
    String blobType();

    /**
     * Starts a transaction on an auto-commit connection. A {@code write} transaction must take
     * the locks it needs for its reads too, so that read-then-write is safe against other
     * processes sharing the database.
     */
    void begin(Connection connection, boolean write) throws SQLException;

    void commit(Connection connection) throws SQLException;

    void rollback(Connection connection) throws SQLException;

    /** Appended to a SELECT in a write transaction to lock the rows it reads ("" where begin already did). */
    String forUpdate();

    /** Whether the failure is a primary-key (unique) violation: another writer created the same row first. */
    boolean isUniqueViolation(SQLException e);

    /**
     * An insert that replaces the value columns when a row with the same key exists. The default
     * is the {@code ON CONFLICT ... DO UPDATE} form SQLite (3.24+) and PostgreSQL (9.5+) share.
     */
    default String upsert(String table, List<String> keyColumns, List<String> valueColumns) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (");
        sql.append(String.join(", ", keyColumns)).append(", ").append(String.join(", ", valueColumns));
        sql.append(") VALUES (").append("?, ".repeat(keyColumns.size() + valueColumns.size() - 1)).append("?)");
        sql.append(" ON CONFLICT (").append(String.join(", ", keyColumns)).append(") DO UPDATE SET ");
        for (int i = 0; i < valueColumns.size(); i++) {
            String column = valueColumns.get(i);
            sql.append(i == 0 ? "" : ", ").append(column).append(" = excluded.").append(column);
        }
        return sql.toString();
    }
}
