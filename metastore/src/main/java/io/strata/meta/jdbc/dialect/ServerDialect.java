package io.strata.meta.jdbc.dialect;

import com.zaxxer.hikari.HikariConfig;

import java.sql.SQLException;

import static java.util.Objects.requireNonNull;

/**
 * What the database servers (PostgreSQL, MariaDB) have in common as dialects: a pool of
 * connections to the URL's database, transactions through JDBC, row locks with
 * {@code FOR UPDATE}, usage in sharded rows, and {@value #CONNECTIONS} connections reading a dump
 * or writing a load at once.
 */
abstract class ServerDialect implements SqlDialect {
    private static final int CONNECTIONS = 4;

    private final JdbcUrl url;
    private final UsageCounters counters = new ShardedCounters();

    ServerDialect(JdbcUrl url) {
        this.url = requireNonNull(url, "url is null");
    }

    /** The driver's class, named so that no service file has to find it in a shaded jar. */
    abstract String driverClass();

    /** Sets the driver's properties; parameters of the same name in the URL win. */
    abstract void configure(HikariConfig config);

    @Override
    public final String describe() {
        return url.describe();
    }

    @Override
    public final Connections open() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setDriverClassName(driverClass());
        config.setJdbcUrl(url.jdbcUrl());
        if (url.user() != null) {
            config.setUsername(url.user());
        }
        if (url.password() != null) {
            config.setPassword(url.password());
        }
        configure(config);
        return ConnectionPool.open(config);
    }

    @Override
    public final boolean locksDatabase() {
        return false;
    }

    @Override
    public final void begin(Session session, boolean write) throws SQLException {
        session.connection().setAutoCommit(false);
    }

    @Override
    public final void commit(Session session) throws SQLException {
        session.connection().commit();
    }

    @Override
    public final void rollback(Session session) throws SQLException {
        session.connection().rollback();
    }

    @Override
    public final String forUpdate() {
        return " FOR UPDATE";
    }

    @Override
    public final UsageCounters counters() {
        return counters;
    }

    @Override
    public final int dumpReaders() {
        return CONNECTIONS;
    }

    @Override
    public final int loadWriters() {
        return CONNECTIONS;
    }
}
