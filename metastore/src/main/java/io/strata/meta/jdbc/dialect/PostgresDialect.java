package io.strata.meta.jdbc.dialect;

import com.zaxxer.hikari.HikariConfig;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;


/**
 * PostgreSQL ({@code jdbc:postgresql://host:port/db}): one volume per database, or per schema
 * with the driver's {@code currentSchema} parameter. Writes lock their inode rows with
 * {@code FOR UPDATE}; deadlocks (40P01) and serialization failures (40001) are retried; directory
 * moves and formats take transaction-scoped advisory locks; names are {@code TEXT COLLATE "C"} in
 * a UTF8 database (checked on open), which orders them by code point. A dump's readers share one
 * exported snapshot, as pg_dump's parallel mode does.
 */
public final class PostgresDialect extends ServerDialect {
    /** Advisory lock (transaction-scoped) held while a volume is formatted, so two clients format it once. */
    static final long FORMAT_LOCK = 0x5374_7261_7461_0001L; // "Strata" + 1
    /** Advisory lock (transaction-scoped) held by a rename that moves a directory to another parent. */
    static final long DIRECTORY_MOVE_LOCK = 0x5374_7261_7461_0002L;
    private static final Pattern SNAPSHOT_ID = Pattern.compile("[0-9A-Fa-f-]+");

    private final InodeNumbers inodeNumbers = new SequenceNumbers();

    public PostgresDialect(JdbcUrl url) {
        super(url);
    }

    @Override
    String driverClass() {
        return "org.postgresql.Driver";
    }

    @Override
    void configure(HikariConfig config) {
        // a JDBC batch of inserts goes out as multi-row INSERTs
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        config.addDataSourceProperty("ApplicationName", "strata");
        // a server that stops answering fails the call (EIO upstream) instead of hanging the mount;
        // parameters of the same name in the URL win
        config.addDataSourceProperty("connectTimeout", "10");
        config.addDataSourceProperty("socketTimeout", "60");
        config.addDataSourceProperty("tcpKeepAlive", "true");
    }

    @Override
    public void lockDirectoryMoves(Session session) throws SQLException {
        advisoryLock(session, DIRECTORY_MOVE_LOCK);
    }

    /** Unique violation: 23505. */
    @Override
    public boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /** Serialization failure (40001) or deadlock (40P01). */
    @Override
    public boolean isRetryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    @Override
    public String upsert(String table, List<String> keyColumns, List<String> valueColumns) {
        return Syntax.onConflictUpsert(table, keyColumns, valueColumns);
    }

    /** One array parameter: an index probe per value whatever the planner's statistics say. */
    @Override
    public String inList(String column, int count) {
        return column + " = ANY(?)";
    }

    @Override
    public int bindList(PreparedStatement statement, int index, String sqlType, List<?> values) throws SQLException {
        statement.setArray(index, statement.getConnection().createArrayOf(sqlType, values.toArray()));
        return index + 1;
    }

    /** In a UTF8 database (checked on open), "C" compares UTF-8 bytes: code point order. */
    @Override
    public String nameType() {
        return "TEXT COLLATE \"C\"";
    }

    @Override
    public String keyType() {
        return "TEXT";
    }

    @Override
    public String textType() {
        return "TEXT";
    }

    @Override
    public String blobType() {
        return "BYTEA";
    }

    @Override
    public String tableOptions() {
        return "";
    }

    /** Names are compared as UTF-8 bytes; a database in another encoding would order them differently. */
    @Override
    public void checkDatabase(Session session, String where) throws IOException, SQLException {
        try (Statement statement = session.connection().createStatement();
                ResultSet rows = statement.executeQuery("SHOW server_encoding")) {
            rows.next();
            String encoding = rows.getString(1);
            if (!"UTF8".equalsIgnoreCase(encoding)) {
                throw new IOException(where + " has encoding " + encoding
                        + ": a Strata metastore needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')");
            }
        }
    }

    /** In the connection's search path (the current schema). */
    @Override
    public boolean tableExists(Session session, String table) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT to_regclass(?) IS NOT NULL");
        statement.setString(1, table);
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    @Override
    public void lockFormat(Session session) throws SQLException {
        advisoryLock(session, FORMAT_LOCK);
    }

    @Override
    public InodeNumbers inodeNumbers() {
        return inodeNumbers;
    }

    /** The first reader opens a REPEATABLE READ, READ ONLY transaction and exports its snapshot; the others import it. */
    @Override
    public List<Connection> snapshot(Connections connections, int readers) throws SQLException {
        List<Connection> opened = new ArrayList<>();
        try {
            String snapshot = null;
            for (int i = 0; i < readers; i++) {
                Connection connection = connections.separate();
                opened.add(connection);
                connection.setAutoCommit(false);
                connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                connection.setReadOnly(true);
                try (Statement statement = connection.createStatement()) {
                    if (snapshot == null) {
                        try (ResultSet rows = statement.executeQuery("SELECT pg_export_snapshot()")) {
                            rows.next();
                            snapshot = rows.getString(1);
                        }
                        if (!SNAPSHOT_ID.matcher(snapshot).matches()) {
                            throw new SQLException("unexpected snapshot id '" + snapshot + "'");
                        }
                    } else {
                        statement.execute("SET TRANSACTION SNAPSHOT '" + snapshot + "'");
                    }
                }
            }
            return opened;
        } catch (SQLException | RuntimeException e) {
            Syntax.closeAll(opened, e);
            throw e;
        }
    }

    @Override
    public String emptyTable(String table) {
        return "TRUNCATE " + table;
    }

    /** The planner should not take a million-row volume for an empty one. */
    @Override
    public Optional<String> analyze(List<String> tables) {
        return Optional.of("ANALYZE " + String.join(", ", tables));
    }

    /** PostgreSQL text holds no NUL character. */
    @Override
    public Optional<String> unstorable(String value) {
        return value.indexOf('\0') >= 0 ? Optional.of("holds a NUL character") : Optional.empty();
    }

    private static void advisoryLock(Session session, long lock) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT pg_advisory_xact_lock(?)");
        statement.setLong(1, lock);
        statement.executeQuery().close();
    }
}
