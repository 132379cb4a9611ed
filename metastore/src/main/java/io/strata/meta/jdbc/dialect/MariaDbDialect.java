package io.strata.meta.jdbc.dialect;

import com.zaxxer.hikari.HikariConfig;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;


/**
 * MariaDB and MySQL ({@code jdbc:mariadb://host:port/db} or {@code jdbc:mysql://...}), through
 * MariaDB Connector/J: one volume per database, InnoDB tables.
 *
 * <p>Sessions run READ COMMITTED with {@code ANSI_QUOTES} (the settings table's column is named
 * {@code "key"}, a reserved word here) and strict mode (a value too long fails rather than being
 * cut). Writes lock their inode rows with {@code FOR UPDATE}; deadlocks (1213) are retried. There
 * are no transaction-scoped advisory locks: a directory move locks the {@code format_version} row
 * of settings, which nothing writes after the format; a format, where each DDL statement commits
 * by itself, holds {@code GET_LOCK} on the connection. Names are {@code VARBINARY}: byte order,
 * which is code point order, and no padding (the {@code _bin} collations ignore trailing spaces).
 * Inode numbers come in batches ({@link BatchedNumbers}), usage from sharded rows. A dump's
 * readers start their snapshots while a connection holds {@code LOCK TABLES ... READ}, which
 * waits for the writes in progress and holds new ones back until every reader has its snapshot.
 */
public final class MariaDbDialect extends ServerDialect {
    /** The scheme MariaDB Connector/J takes; {@code jdbc:mysql:} only with an option we need not set. */
    public static final String DRIVER_PREFIX = "jdbc:mariadb://";
    private static final int FORMAT_LOCK_SECONDS = 60;
    /** A name is at most 255 bytes (NAME_MAX); room to spare, still well inside InnoDB's key limit. */
    private static final String NAME = "VARBINARY(1024)";
    private static final List<String> TABLES = List.of("inodes", "dentries", "xattrs", "counters", "settings",
            "inode_numbers");

    private final InodeNumbers inodeNumbers = new BatchedNumbers();

    public MariaDbDialect(JdbcUrl url) {
        super(url);
    }

    @Override
    String driverClass() {
        return "org.mariadb.jdbc.Driver";
    }

    @Override
    void configure(HikariConfig config) {
        config.setConnectionInitSql("SET SESSION sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
        // a server that stops answering fails the call (EIO upstream) instead of hanging the mount;
        // parameters of the same name in the URL win
        config.addDataSourceProperty("connectTimeout", "10000");
        config.addDataSourceProperty("socketTimeout", "60000");
        config.addDataSourceProperty("tcpKeepAlive", "true");
    }

    @Override
    public void lockDirectoryMoves(Session session) throws SQLException {
        try (ResultSet rows = session.prepare("SELECT value FROM settings WHERE \"key\" = 'format_version' FOR UPDATE")
                .executeQuery()) {
            if (!rows.next()) {
                throw new SQLException("corrupt metastore: the format_version setting is missing");
            }
        }
    }

    /** ER_DUP_ENTRY (1062), or with the key's name (1586). */
    @Override
    public boolean isUniqueViolation(SQLException e) {
        return e.getErrorCode() == 1062 || e.getErrorCode() == 1586;
    }

    /** A deadlock (1213, SQLSTATE 40001): InnoDB rolled the whole transaction back. */
    @Override
    public boolean isRetryable(SQLException e) {
        return e.getErrorCode() == 1213 || "40001".equals(e.getSQLState());
    }

    /** {@code ON DUPLICATE KEY UPDATE c = VALUES(c)}: MySQL's form, which MariaDB and TiDB share. */
    @Override
    public String upsert(String table, List<String> keyColumns, List<String> valueColumns) {
        StringBuilder sql = Syntax.insert(table, keyColumns, valueColumns).append(" ON DUPLICATE KEY UPDATE ");
        for (int i = 0; i < valueColumns.size(); i++) {
            String column = valueColumns.get(i);
            sql.append(i == 0 ? "" : ", ").append(column).append(" = VALUES(").append(column).append(')');
        }
        return sql.toString();
    }

    @Override
    public String inList(String column, int count) {
        return Syntax.parameterList(column, count);
    }

    @Override
    public int bindList(PreparedStatement statement, int index, String sqlType, List<?> values) throws SQLException {
        return Syntax.bindParameterList(statement, index, values);
    }

    @Override
    public String nameType() {
        return NAME;
    }

    @Override
    public String keyType() {
        return NAME;
    }

    /** Up to 16 MiB of UTF-8 (TEXT's 64 KiB would cap a setting). */
    @Override
    public String textType() {
        return "MEDIUMTEXT";
    }

    /** An xattr value may be 64 KiB, one byte more than a BLOB holds. */
    @Override
    public String blobType() {
        return "MEDIUMBLOB";
    }

    @Override
    public String tableOptions() {
        return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    }

    @Override
    public boolean tableExists(Session session, String table) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT 1 FROM information_schema.tables "
                + "WHERE table_schema = DATABASE() AND table_name = ?");
        statement.setString(1, table);
        try (ResultSet rows = statement.executeQuery()) {
            return rows.next();
        }
    }

    /** A lock of the connection, named after the database (GET_LOCK's names are the server's). */
    @Override
    public void lockFormat(Session session) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT GET_LOCK(CONCAT('strata.format.', DATABASE()), ?)");
        statement.setInt(1, FORMAT_LOCK_SECONDS);
        try (ResultSet rows = statement.executeQuery()) {
            if (!rows.next() || rows.getInt(1) != 1) {
                throw new SQLException("another client held the format lock of " + describe() + " for "
                        + FORMAT_LOCK_SECONDS + " s");
            }
        }
    }

    @Override
    public void unlockFormat(Session session) throws SQLException {
        session.prepare("SELECT RELEASE_LOCK(CONCAT('strata.format.', DATABASE()))").executeQuery().close();
    }

    @Override
    public InodeNumbers inodeNumbers() {
        return inodeNumbers;
    }

    /** See the class comment: readers start their snapshots while a gate connection holds the tables' read locks. */
    @Override
    public List<Connection> snapshot(Connections connections, int readers) throws SQLException {
        return Syntax.gatedSnapshot(connections, readers, "LOCK TABLES " + String.join(" READ, ", TABLES) + " READ",
                "UNLOCK TABLES", reader -> {
                    // not auto-commit: the pool then rolls the snapshot back when the reader returns
                    reader.setAutoCommit(false);
                    reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                    Syntax.execute(reader, "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
                });
    }

    /** DELETE: TRUNCATE would commit the transaction it runs in. */
    @Override
    public String emptyTable(String table) {
        return "DELETE FROM " + table;
    }

    @Override
    public Optional<String> analyze(List<String> tables) {
        return Optional.of("ANALYZE TABLE " + String.join(", ", tables));
    }
}
