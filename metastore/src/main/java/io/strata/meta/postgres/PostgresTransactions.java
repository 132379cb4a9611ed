package io.strata.meta.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

import static java.util.Objects.requireNonNull;

/**
 * Runs the PostgreSQL engine's statements on a pool of connections (HikariCP): reads as single
 * statements in auto-commit mode, writes as READ COMMITTED transactions retried a bounded number
 * of times, with jittered exponential backoff, when PostgreSQL reports a serialization failure
 * (SQLSTATE 40001) or a deadlock (40P01), or when the work itself finds that the inodes it locked
 * are no longer the ones it needs ({@link Retry}).
 */
final class PostgresTransactions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresTransactions.class);
    /**
     * Attempts of one write before it fails with an IOException (EIO upstream). Eight threads
     * replacing the same three names through two stores needed up to six; the backoff makes
     * each further one less likely to collide.
     */
    static final int MAX_ATTEMPTS = 20;
    private static final int POOL_SIZE = 10;
    /** How long a caller waits for a free connection, or for a new one, before EIO. */
    private static final long CONNECTION_TIMEOUT_MILLIS = 10_000;
    private static final long MAX_BACKOFF_MILLIS = 100;

    private final HikariDataSource pool;
    private final String where;

    private PostgresTransactions(HikariDataSource pool, String where) {
        this.pool = pool;
        this.where = where;
    }

    /**
     * Opens the pool; it connects once at once, so a wrong host or password fails here.
     *
     * @throws SQLException if the first connection fails (the message has no password in it)
     */
    static PostgresTransactions open(PostgresUrl url) throws SQLException {
        requireNonNull(url, "url is null");
        HikariConfig config = new HikariConfig();
        config.setPoolName("strata-meta");
        config.setDriverClassName("org.postgresql.Driver"); // no reliance on service files in a shaded jar
        config.setJdbcUrl(url.jdbcUrl());
        if (url.user() != null) {
            config.setUsername(url.user());
        }
        if (url.password() != null) {
            config.setPassword(url.password());
        }
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        // a JDBC batch of inserts goes out as multi-row INSERTs
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        config.addDataSourceProperty("ApplicationName", "strata");
        // a server that stops answering fails the call (EIO upstream) instead of hanging the mount;
        // parameters of the same name in the URL win
        config.addDataSourceProperty("connectTimeout", "10");
        config.addDataSourceProperty("socketTimeout", "60");
        config.addDataSourceProperty("tcpKeepAlive", "true");
        try {
            return new PostgresTransactions(new HikariDataSource(config), url.describe());
        } catch (RuntimeException e) { // HikariPool.PoolInitializationException
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException(e.getMessage(), e);
        }
    }

    /** Runs a read on an auto-commit connection: each statement sees its own snapshot. */
    <T> T read(Work<T> work) throws IOException {
        try (Connection connection = pool.getConnection()) {
            return work.run(new PostgresRows(connection));
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Runs {@code work} in one transaction, again from the start after a retryable conflict. */
    <T> T write(Work<T> work) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return attempt(work);
            } catch (SQLException e) {
                if (!isRetryable(e) || attempt == MAX_ATTEMPTS) {
                    throw failure(e);
                }
                LOG.debug("metastore {}: attempt {} failed, retrying: {}", where, attempt, e.getMessage());
            } catch (Retry e) {
                if (attempt == MAX_ATTEMPTS) {
                    throw new IOException("metastore " + where + " failed: " + e.getMessage() + " after "
                            + MAX_ATTEMPTS + " attempts");
                }
                LOG.debug("metastore {}: attempt {} found {}, retrying", where, attempt, e.getMessage());
            }
            backoff(attempt);
        }
    }

    private <T> T attempt(Work<T> work) throws IOException, SQLException {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                PostgresRows rows = new PostgresRows(connection);
                T result = work.run(rows);
                rows.flushUsage();
                connection.commit();
                return result;
            } catch (IOException | SQLException | RuntimeException | Error e) {
                try {
                    connection.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        } // the pool puts auto-commit back when the connection returns
    }

    /**
     * A pooled connection for work that spans many statements and threads (dump and load, see
     * PostgresDump); the caller closes it, and the pool resets it.
     */
    Connection borrow() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public void close() {
        pool.close();
    }

    private IOException failure(SQLException e) {
        return new IOException("metastore " + where + " failed: " + e.getMessage(), e);
    }

    /** Serialization failure or deadlock: the transaction was rolled back and may simply run again. */
    static boolean isRetryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
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
        T run(PostgresRows rows) throws IOException, SQLException;
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
