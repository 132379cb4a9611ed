package io.strata.meta.jdbc.dialect;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The embedded SQLite database file ({@code sqlite:///path/meta.db}): WAL journal, one writer at a
 * time, one connection per store behind a lock. A write transaction is BEGIN IMMEDIATE, which
 * takes the database's write lock up front: nothing it reads can change before it commits, so
 * it needs no row locks and never fails half way with SQLITE_BUSY.
 */
public final class SqliteDialect implements SqlDialect {
    /** How long a statement waits for another process's write lock before failing (then EIO upstream). */
    private static final int BUSY_TIMEOUT_MILLIS = 5_000;
    private static final int DUMP_READERS = 2;

    private final Path file;
    private final UsageCounters counters = new NamedCounters();
    private final InodeNumbers inodeNumbers = new CounterNumbers();

    public SqliteDialect(Path file) {
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

    /** A new connection to the file, configured for the engine (journal, timeouts), in auto-commit mode. */
    public Connection connect() throws SQLException {
        Path parent = file.getParent();
        if (parent != null) {
            try {
                Files.createDirectories(parent);
            } catch (IOException e) {
                throw new SQLException("cannot create " + parent + ": " + e.getMessage(), e);
            }
        }
        SqliteNativeLibrary.prepare();
        SQLiteConfig config = new SQLiteConfig();
        // WAL lets readers in other processes proceed while one writes; NORMAL syncs at
        // checkpoints only: a power cut may lose the last commits but never corrupts the file
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        // The engine reads what an INSERT made through RETURNING. Left on, the driver matched every
        // update's SQL against a regular expression and, after each INSERT, prepared and ran a
        // statement of its own (SELECT last_insert_rowid()) for JDBC's getGeneratedKeys
        config.setGetGeneratedKeys(false);
        // Multi-thread mode, not the library's default serialized one: each connection is used by
        // one thread at a time (SingleConnection lends it behind a lock; a separate one has one
        // user), so SQLite's own mutex, taken and released on every call including each column a
        // row is read by, only cost time: 10 % of a 10,000-entry listing read (docs/PERFORMANCE.md)
        config.setOpenMode(SQLiteOpenMode.NOMUTEX);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    @Override
    public String describe() {
        return "sqlite://" + file;
    }

    @Override
    public Connections open() throws SQLException {
        return new SingleConnection(this::connect);
    }

    /** Read from the statement itself: sqlite-jdbc's getters cost a fresh daemon a VM call each. */
    @Override
    public ResultRow rows(ResultSet results) throws SQLException {
        return SqliteResultRow.of(results);
    }

    @Override
    public boolean locksDatabase() {
        return true;
    }

    /**
     * Brings the database's pages into the OS page cache, at most {@link #PREFETCH_PAGES} of them.
     * Why: a mount starts after the machine (or the harness) dropped its caches, and then each
     * first lookup in a directory waited for the B-tree pages on its path, one small random read
     * after another (a fresh mount's first lookup took 8.9-13.5 ms with the caches dropped against
     * 3.2-7.2 ms with the file cached); the 6 MB of a 10,000-file volume are read in ~10 ms.
     *
     * <p>The pages are read by SQLite, on a connection of its own ({@code dbstat} visits every
     * page of every B-tree, those in the write-ahead log included), never through a descriptor of
     * ours: closing any descriptor of the database file drops every POSIX lock this process holds
     * on it, SQLite's included (SQLite's "How To Corrupt", 2.2). The lock lost was the shared one
     * each connection keeps on a WAL database so that no other process's connection closes as the
     * last one; one that did checkpointed and deleted the log under this process's open store,
     * whose later commits then went to a deleted file (the likeliest way the bench's volume came
     * to have rows missing from its indexes). SQLite defers its own descriptor's close while
     * other connections of the process hold locks on the file.
     */
    @Override
    public void prefetch() throws IOException {
        try (Connection connection = connect();
             Statement statement = connection.createStatement();
             ResultSet pages = statement.executeQuery(
                     "SELECT count(*) FROM (SELECT 1 FROM dbstat LIMIT " + PREFETCH_PAGES + ")")) {
            pages.next();
        } catch (SQLException e) {
            throw new IOException("cannot read ahead metastore " + describe() + ": " + e.getMessage(), e);
        }
    }

    /** SQLite's {@code integrity_check}, its first {@link #DAMAGE_LINES} findings. */
    @Override
    public List<String> storageDamage(Session session) throws SQLException {
        List<String> damage = new ArrayList<>();
        try (Statement statement = session.connection().createStatement();
             ResultSet lines = statement.executeQuery("PRAGMA integrity_check(" + DAMAGE_LINES + ")")) {
            while (lines.next()) {
                damage.add(lines.getString(1));
            }
        }
        return damage.equals(List.of("ok")) ? List.of() : damage;
    }

    @Override
    public void rebuildIndexes(Session session) throws SQLException {
        try (Statement statement = session.connection().createStatement()) {
            statement.executeUpdate("REINDEX");
        }
    }

    private static final int DAMAGE_LINES = 100;

    /** How many pages {@link #prefetch} reads at most: 128 MiB of 4 KiB pages (~400,000 inodes). */
    static final int PREFETCH_PAGES = 32_768;

    /**
     * Transactions are statements on the auto-commit connection: IMMEDIATE takes the write lock
     * up front; a plain (deferred) BEGIN gives a read a consistent snapshot without blocking writers.
     * They are the session's prepared statements: sqlite-jdbc parses a plain statement's text for
     * its own commands with regular expressions and prepares it anew, at every transaction.
     */
    @Override
    public void begin(Session session, boolean write) throws SQLException {
        session.prepare(write ? "BEGIN IMMEDIATE" : "BEGIN").execute();
    }

    @Override
    public void commit(Session session) throws SQLException {
        session.prepare("COMMIT").execute();
    }

    @Override
    public void rollback(Session session) throws SQLException {
        session.prepare("ROLLBACK").execute();
    }

    @Override
    public String forUpdate() {
        return ""; // BEGIN IMMEDIATE already holds the only write lock
    }

    @Override
    public void lockDirectoryMoves(Session session) {
        // BEGIN IMMEDIATE already holds the only write lock
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return e instanceof SQLiteException sqlite
                && (sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
                || sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE);
    }

    /**
     * sqlite-jdbc finalizes a statement whose step failed with anything but BUSY, LOCKED,
     * CONSTRAINT or MISUSE (SQLITE_FULL, SQLITE_IOERR, SQLITE_CORRUPT...), yet reports it open,
     * and every later use fails with "statement is not executing": after one SQLITE_CORRUPT every
     * later unlink of a mount failed so, and after one SQLITE_FULL every later insert, once the
     * database had room again.
     */
    @Override
    public boolean spoilsStatements(SQLException e) {
        if (!(e instanceof SQLiteException sqlite)) {
            return true; // "statement is not executing" itself, among others
        }
        int primary = sqlite.getResultCode().code & 0xff;
        return primary != SQLiteErrorCode.SQLITE_BUSY.code && primary != SQLiteErrorCode.SQLITE_LOCKED.code
                && primary != SQLiteErrorCode.SQLITE_CONSTRAINT.code && primary != SQLiteErrorCode.SQLITE_MISUSE.code;
    }

    /** SQLITE_BUSY after the busy timeout is a failure: the other process held the file too long. */
    @Override
    public boolean isRetryable(SQLException e) {
        return false;
    }

    /** The {@code ON CONFLICT ... DO UPDATE} form (SQLite 3.24+, PostgreSQL 9.5+). */
    @Override
    public String upsert(String table, List<String> keyColumns, List<String> valueColumns) {
        return Syntax.onConflictUpsert(table, keyColumns, valueColumns);
    }

    @Override
    public String inList(String column, int count) {
        return Syntax.parameterList(column, count);
    }

    @Override
    public int bindList(PreparedStatement statement, int index, String sqlType, List<?> values) throws SQLException {
        return Syntax.bindParameterList(statement, index, values);
    }

    /**
     * BINARY compares the UTF-8 bytes, which is code point order; ORDER BY and {@code name > ?}
     * use the same collation, so paging is consistent.
     */
    @Override
    public String nameType() {
        return "TEXT COLLATE BINARY";
    }

    @Override
    public String keyType() {
        return "VARCHAR(255)";
    }

    @Override
    public String textType() {
        return "TEXT";
    }

    @Override
    public String blobType() {
        return "BLOB";
    }

    @Override
    public String tableOptions() {
        return "";
    }

    @Override
    public boolean tableExists(Session session, String table) throws SQLException {
        PreparedStatement statement = session.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
        statement.setString(1, table);
        try (ResultSet rows = statement.executeQuery()) {
            return rows.next();
        }
    }

    @Override
    public void lockFormat(Session session) {
        // the format runs in a write transaction: BEGIN IMMEDIATE holds the only write lock
    }

    @Override
    public UsageCounters counters() {
        return counters;
    }

    @Override
    public InodeNumbers inodeNumbers() {
        return inodeNumbers;
    }

    /**
     * Readers on connections of their own, each starting its read transaction while a write
     * transaction on another connection keeps every commit out; then that one is rolled back.
     */
    @Override
    public List<Connection> snapshot(Connections connections, int readers) throws SQLException {
        return Syntax.gatedSnapshot(connections, readers, "BEGIN IMMEDIATE", "ROLLBACK", reader -> {
            Syntax.execute(reader, "BEGIN");
            try (Statement statement = reader.createStatement();
                    ResultSet first = statement.executeQuery("SELECT COUNT(*) FROM counters")) {
                first.next(); // a read transaction takes its snapshot at its first read
            }
        });
    }

    @Override
    public int dumpReaders() {
        return DUMP_READERS;
    }

    @Override
    public int loadWriters() {
        return 1; // one writer anyway: the whole load is one transaction, rolled back whole on failure
    }

    @Override
    public String emptyTable(String table) {
        return "DELETE FROM " + table;
    }

    @Override
    public Optional<String> analyze(List<String> tables) {
        return Optional.empty();
    }
}
