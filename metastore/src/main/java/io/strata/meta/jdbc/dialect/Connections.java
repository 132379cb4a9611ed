package io.strata.meta.jdbc.dialect;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where a store's connections come from: {@link SingleConnection} for SQLite (one connection
 * behind a lock: the database has one writer anyway), {@link ConnectionPool} for a server.
 */
public interface Connections extends AutoCloseable {
    /** A session for one read or one transaction; give it back with {@link #release}. */
    Session acquire() throws SQLException;

    /** Gives a session back: a pooled one is closed, the single one unlocked. */
    void release(Session session);

    /**
     * A connection of its own, in auto-commit mode, for work that spans many statements and
     * threads (dump, load); the caller closes it.
     */
    Connection separate() throws SQLException;

    /** Closes every connection; idempotent. */
    @Override
    void close() throws SQLException;
}
