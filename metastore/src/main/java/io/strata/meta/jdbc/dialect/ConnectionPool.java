package io.strata.meta.jdbc.dialect;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A HikariCP pool of connections to a database server, READ COMMITTED and in auto-commit mode
 * when lent; a session is one borrowed connection, its statements closed when it goes back.
 */
final class ConnectionPool implements Connections {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionPool.class);
    private static final int POOL_SIZE = 10;
    /** How long a caller waits for a free connection, or for a new one, before EIO. */
    private static final long CONNECTION_TIMEOUT_MILLIS = 10_000;

    private final HikariDataSource pool;

    private ConnectionPool(HikariDataSource pool) {
        this.pool = pool;
    }

    /**
     * A pool configured with {@code config}'s driver, URL, credentials and driver properties; it
     * connects once at once, so a wrong host or password fails here.
     *
     * @throws SQLException if the first connection fails (the message has no password in it)
     */
    static ConnectionPool open(HikariConfig config) throws SQLException {
        config.setPoolName("strata-meta");
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        try {
            return new ConnectionPool(new HikariDataSource(config));
        } catch (RuntimeException e) { // HikariPool.PoolInitializationException
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException(e.getMessage(), e);
        }
    }

    @Override
    public Session acquire() throws SQLException {
        return new Session(pool.getConnection());
    }

    @Override
    public void release(Session session) {
        try {
            session.close(); // the pool puts auto-commit back when the connection returns
        } catch (SQLException e) {
            LOG.debug("closing a pooled session failed: {}", e.getMessage());
        }
    }

    @Override
    public Connection separate() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public void close() {
        pool.close(); // idempotent; a connection still in use is aborted
    }
}
