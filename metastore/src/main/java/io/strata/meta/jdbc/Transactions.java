package io.strata.meta.jdbc;

import io.strata.meta.jdbc.dialect.Connections;
import io.strata.meta.jdbc.dialect.InodeNumbers;
import io.strata.meta.jdbc.dialect.Session;
import io.strata.meta.jdbc.dialect.SqlDialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

import static java.util.Objects.requireNonNull;

/**
 * Runs the engine's statements on the store's {@link Connections}: reads as single statements in
 * auto-commit mode (each sees its own snapshot), writes as transactions. A write runs again from
 * the start, a bounded number of times with jittered exponential backoff, when the dialect calls
 * its failure a conflict (a deadlock, a serialization failure), when the work finds that the
 * inodes it locked are no longer the ones it needs ({@link Retry}), or after fetching inode
 * numbers outside the transaction ({@link InodeNumbers.Exhausted}).
 */
final class Transactions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Transactions.class);
    /**
     * Attempts of one write before it fails with an IOException (EIO upstream). Eight threads
     * replacing the same three names through two stores needed up to six; the backoff makes
     * each further one less likely to collide.
     */
    static final int MAX_ATTEMPTS = 20;
    private static final long MAX_BACKOFF_MILLIS = 100;

    private final SqlDialect dialect;
    private final Connections connections;

    Transactions(SqlDialect dialect, Connections connections) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.connections = requireNonNull(connections, "connections is null");
    }

    Connections connections() {
        return connections;
    }

    /** Runs a read on an auto-commit connection. */
    <T> T read(Work<T> work) throws IOException {
        Session session = acquire();
        try {
            return work.run(new Rows(session, dialect));
        } catch (SQLException e) {
            forgetIfSpoiled(session, e);
            throw failure(e);
        } finally {
            connections.release(session);
        }
    }

    /** Runs {@code work} in one transaction, again from the start after a retryable conflict. */
    <T> T write(Work<T> work) throws IOException {
        return write(work, false);
    }

    /**
     * {@link #write}, for work that takes the dialect's format lock: released after the
     * transaction ends, where the end does not release it (a lock of the connection), so that
     * the next store to take it sees the volume committed.
     */
    <T> T writeFormat(Work<T> work) throws IOException {
        return write(work, true);
    }

    private <T> T write(Work<T> work, boolean formatLock) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Session session = acquire();
            try {
                return attempt(session, work, formatLock);
            } catch (SQLException e) {
                forgetIfSpoiled(session, e);
                if (!dialect.isRetryable(e) || attempt == MAX_ATTEMPTS) {
                    throw failure(e);
                }
                LOG.debug("metastore {}: attempt {} failed, retrying: {}", dialect.describe(), attempt, e.getMessage());
            } catch (Retry e) {
                if (attempt == MAX_ATTEMPTS) {
                    throw new IOException("metastore " + dialect.describe() + " failed: " + e.getMessage() + " after "
                            + MAX_ATTEMPTS + " attempts");
                }
                LOG.debug("metastore {}: attempt {} found {}, retrying", dialect.describe(), attempt, e.getMessage());
            } catch (InodeNumbers.Exhausted e) {
                if (attempt == MAX_ATTEMPTS) {
                    throw new IOException("metastore " + dialect.describe() + " failed: other writers took every "
                            + "inode number fetched for it, " + MAX_ATTEMPTS + " times");
                }
                refill(session, e.count());
                continue; // no conflict: at once
            } finally {
                connections.release(session);
            }
            backoff(attempt);
        }
    }

    private <T> T attempt(Session session, Work<T> work, boolean formatLock) throws IOException, SQLException {
        dialect.begin(session, true);
        try {
            Rows rows = new Rows(session, dialect);
            T result = work.run(rows);
            rows.flushUsage();
            dialect.commit(session);
            return result;
        } catch (IOException | SQLException | RuntimeException | Error e) {
            try {
                dialect.rollback(session);
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            if (formatLock) {
                dialect.unlockFormat(session);
            }
        }
    }

    /** After the rollback, in auto-commit mode: the numbers are the store's whatever becomes of the transaction. */
    private void refill(Session session, int count) throws IOException {
        try {
            session.connection().setAutoCommit(true);
            dialect.inodeNumbers().refill(session, count);
        } catch (SQLException e) {
            forgetIfSpoiled(session, e);
            throw failure(e);
        }
    }

    private Session acquire() throws IOException {
        try {
            return connections.acquire();
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            connections.close();
        } catch (SQLException e) {
            throw new IOException("cannot close metastore " + dialect.describe() + ": " + e.getMessage(), e);
        }
    }

    private void forgetIfSpoiled(Session session, SQLException e) {
        if (dialect.spoilsStatements(e)) {
            session.forgetStatements();
        }
    }

    private IOException failure(SQLException e) {
        return new IOException("metastore " + dialect.describe() + " failed: " + e.getMessage(), e);
    }

    private static void backoff(int attempt) throws InterruptedIOException {
        long bound = Math.min(MAX_BACKOFF_MILLIS, 1L << attempt);
        try {
            Thread.sleep(1 + ThreadLocalRandom.current().nextLong(bound));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while retrying a metastore transaction");
        }
    }

    /** The body of a read or of one attempt of a write transaction. */
    @FunctionalInterface
    interface Work<T> {
        T run(Rows rows) throws IOException, SQLException;
    }

    /**
     * Thrown by a write that found, after taking its row locks, that it needs an inode it did not
     * lock (a concurrent change replaced an entry between the first look and the lock): the
     * transaction rolls back and runs again.
     */
    static final class Retry extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Retry(String message) {
            super(message, null, false, false);
        }
    }
}
