package io.strata.meta.jdbc.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection, kept for the store's life with its prepared statements, lent to one caller at
 * a time behind a lock: SQLite has a single writer anyway, and its transactions are short.
 */
final class SingleConnection implements Connections {
    /** Opens a new connection to the same database. */
    @FunctionalInterface
    interface Opener {
        Connection open() throws SQLException;
    }

    private final Opener opener;
    private final Session session;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed;

    SingleConnection(Opener opener) throws SQLException {
        this.opener = opener;
        this.session = new Session(opener.open());
    }

    @Override
    public Session acquire() throws SQLException {
        lock.lock();
        if (closed) {
            lock.unlock();
            throw new SQLException("the connection is closed");
        }
        return session;
    }

    @Override
    public void release(Session released) {
        lock.unlock();
    }

    @Override
    public Connection separate() throws SQLException {
        return opener.open();
    }

    @Override
    public void close() throws SQLException {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                session.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
