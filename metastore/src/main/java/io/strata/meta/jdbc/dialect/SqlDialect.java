package io.strata.meta.jdbc.dialect;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * What differs between the databases the JDBC engine runs on; the engine writes everything else
 * once, in portable SQL. A dialect is made for one volume (it knows where the database is) and
 * lives as long as the store.
 *
 * <p>The differences are: how to connect ({@link #open}), how a write transaction locks
 * ({@link #locksDatabase}, {@link #begin}, {@link #forUpdate}, {@link #lockDirectoryMoves}), which
 * errors mean a taken key or a transaction to run again, the upsert and list-parameter syntax,
 * column types and the schema objects only some databases have ({@link #counters},
 * {@link #inodeNumbers}), and for dumps and loads how several connections share one snapshot,
 * how many write at once, and what a text column cannot hold; and how a result's rows are read
 * ({@link #rows}).
 */
public interface SqlDialect {
    /** Where the database is, for messages: never with a password. */
    String describe();

    /** The store's connections; the first connection is made here, so a bad address fails at once. */
    Connections open() throws SQLException;

    /**
     * Whether the database runs in this process with one writer at a time (SQLite): a write
     * transaction holds the whole database from {@link #begin}, so what it reads first stays true
     * without row locks, conflicts never need a retry, and a statement costs no round trip, so
     * reads use the simplest statements. Otherwise (a server) a write locks its rows in inode
     * order and reads join what they need into one statement.
     */
    boolean locksDatabase();

    /** The rows of {@code results}, a result of one of this dialect's connections, as the row mappers read them. */
    default ResultRow rows(ResultSet results) throws SQLException {
        return ResultRow.of(results);
    }

    /** See {@link io.strata.meta.fsck.FsckTarget#storageDamage}: nothing a database server lets a client check. */
    default List<String> storageDamage(Session session) throws SQLException {
        return List.of();
    }

    /** See {@link io.strata.meta.fsck.FsckTarget#rebuildIndexes}. */
    default void rebuildIndexes(Session session) throws SQLException {
    }

    /** See {@link io.strata.meta.MetaStore#prefetch}: nothing for a database server. */
    default void prefetch() throws IOException {
    }

    // --- transactions and locks

    /** Starts a transaction; a {@code write} one may change rows. */
    void begin(Session session, boolean write) throws SQLException;

    void commit(Session session) throws SQLException;

    void rollback(Session session) throws SQLException;

    /** Appended to a SELECT in a write transaction to lock the rows it reads ("" where begin already did). */
    String forUpdate();

    /**
     * Takes the lock, held to the end of the transaction, that serializes directory moves between
     * parents (Linux's rename mutex), before any row lock; nothing where begin locked everything.
     */
    void lockDirectoryMoves(Session session) throws SQLException;

    /** Whether the failure is a primary-key (unique) violation: another writer created the same row first. */
    boolean isUniqueViolation(SQLException e);

    /** Whether the transaction was rolled back by a conflict (deadlock, serialization) and may simply run again. */
    boolean isRetryable(SQLException e);

    /**
     * Whether the failure may have left the driver's prepared statement unusable, so that a session
     * must prepare its statements anew before its next use. A pooled session's statements are
     * closed when it goes back anyway.
     */
    default boolean spoilsStatements(SQLException e) {
        return false;
    }

    // --- syntax

    /** An insert that replaces the value columns when a row with the same key exists. */
    String upsert(String table, List<String> keyColumns, List<String> valueColumns);

    /**
     * The condition "{@code column} is one of {@code count} values", to bind with {@link #bindList}:
     * an array parameter where the database has arrays, else a list of parameters.
     */
    String inList(String column, int count);

    /**
     * Binds {@code values} (Long or String, as {@code sqlType} "bigint" or "text" says) to the
     * condition {@link #inList} made, from parameter {@code index}; returns the next index.
     */
    int bindList(PreparedStatement statement, int index, String sqlType, List<?> values) throws SQLException;

    // --- schema

    /**
     * The type of a name column (entry and xattr names). Its order must be the order of the
     * names' UTF-8 bytes (Unicode code points), without padding, not a locale's: readdir pages
     * with {@code name > ?}.
     */
    String nameType();

    /** The type of the settings' key column (unique, compared exactly). */
    String keyType();

    /** The type of free text columns (UFS versions, symlink targets, setting values). */
    String textType();

    /** The type of an arbitrary byte string column (xattr values, up to 64 KiB). */
    String blobType();

    /** Appended to each CREATE TABLE ("" for none). */
    String tableOptions();

    /** Refuses a database the engine cannot use as it is (an encoding that orders names otherwise). */
    default void checkDatabase(Session session, String where) throws java.io.IOException, SQLException {}

    /** Whether {@code table} exists where the store's tables are. */
    boolean tableExists(Session session, String table) throws SQLException;

    /** Keeps two stores opening one new database from formatting it twice; held to {@link #unlockFormat}. */
    void lockFormat(Session session) throws SQLException;

    /** Releases what {@link #lockFormat} took, if the transaction's end does not. */
    default void unlockFormat(Session session) throws SQLException {}

    UsageCounters counters();

    InodeNumbers inodeNumbers();

    // --- dumps and loads

    /**
     * {@code readers} connections, each in a read-only transaction, all on one snapshot of the
     * database; the caller closes them, which ends their transactions.
     */
    List<Connection> snapshot(Connections connections, int readers) throws SQLException;

    /** How many connections read a dump at once. */
    int dumpReaders();

    /**
     * How many connections write a load at once. One means one transaction for the whole load;
     * more, that each commits its share and a last transaction completes the volume.
     */
    int loadWriters();

    /** The statement that empties {@code table} inside a transaction. */
    String emptyTable(String table);

    /** A statement that updates the planner's statistics of {@code tables} after a load, if the database wants one. */
    Optional<String> analyze(List<String> tables);

    /** Why a text value cannot be stored beyond being invalid Unicode (e.g. a NUL character), or empty. */
    default Optional<String> unstorable(String value) {
        return Optional.empty();
    }
}
