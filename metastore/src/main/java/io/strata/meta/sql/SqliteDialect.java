package io.strata.meta.sql;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import static java.util.Objects.requireNonNull;

/**
 * The embedded SQLite database file ({@code sqlite:///path/meta.db}): WAL journal, one writer at a time.
 */
final class SqliteDialect implements SqlDialect {
    /** How long a statement waits for another process's write lock before failing (then EIO upstream). */
    private static final int BUSY_TIMEOUT_MILLIS = 5_000;

    private final Path file;

    SqliteDialect(Path file) {
        requireNonNull(file, "file is null");
        if (!file.isAbsolute()) {
            throw new IllegalArgumentException("SQLite metastore path must be absolute: " + file);
        }
        if (file.toString().contains("?")) {
            // sqlite-jdbc would read the rest as connection parameters and open another file
            throw new IllegalArgumentException("SQLite metastore path must not contain '?': " + file);
        }
        this.file = file;
    }

    @Override
    public Connection connect() throws IOException, SQLException {
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        SQLiteConfig config = new SQLiteConfig();
        // WAL lets readers in other processes proceed while one writes; NORMAL syncs at
        // checkpoints only: a power cut may lose the last commits but never corrupts the file
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    @Override
    public String describe() {
        return "sqlite://" + file;
    }

    /**
     * BINARY compares the UTF-8 bytes, which is Java {@code String} order for every name in the
     * Basic Multilingual Plane; names with characters outside it (surrogate pairs in Java) may
     * sort differently from the memory engine, but paging stays consistent because ORDER BY and
     * {@code name > ?} use the same collation.
     */
    @Override
    public String nameType() {
        return "TEXT COLLATE BINARY";
    }

    @Override
    public String blobType() {
        return "BLOB";
    }

    /**
     * Transactions are issued as statements on the auto-commit connection: IMMEDIATE takes the
     * database's write lock up front, so a read-then-write never fails half way with SQLITE_BUSY;
     * a plain (deferred) BEGIN gives a read a consistent snapshot without blocking writers.
     */
    @Override
    public void begin(Connection connection, boolean write) throws SQLException {
        execute(connection, write ? "BEGIN IMMEDIATE" : "BEGIN");
    }

    @Override
    public void commit(Connection connection) throws SQLException {
        execute(connection, "COMMIT");
    }

    @Override
    public void rollback(Connection connection) throws SQLException {
        execute(connection, "ROLLBACK");
    }

    @Override
    public String forUpdate() {
        return ""; // BEGIN IMMEDIATE already holds the only write lock
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return e instanceof SQLiteException sqlite
                && (sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
                || sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE);
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
