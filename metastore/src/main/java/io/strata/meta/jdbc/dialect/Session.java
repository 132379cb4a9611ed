package io.strata.meta.jdbc.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A connection lent to one caller at a time, with its prepared statements kept by SQL text: the
 * set of texts is fixed by the engine, so the map stays small. How long a session lives is its
 * {@link Connections}' choice: SQLite keeps one for the store's life (preparing is most of a
 * statement's cost there), a pool lends one per call and closes its statements on return.
 */
public final class Session {
    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    public Session(Connection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    public Connection connection() {
        return connection;
    }

    /** The statement for {@code sql}, prepared on first use; the caller binds every parameter. */
    public PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /**
     * Closes and forgets the prepared statements, after a failure that may have spoiled them
     * ({@link SqlDialect#spoilsStatements}): each is prepared anew at its next use. A statement
     * that will not close is forgotten all the same.
     */
    public void forgetStatements() {
        closeStatements(); // spoiled already: a statement that will not close has nothing more to release
    }

    /** Closes the statements and then the connection (a pooled one goes back to its pool). */
    public void close() throws SQLException {
        SQLException failure = closeStatements();
        try {
            connection.close(); // always, even when a statement would not close
        } catch (SQLException e) {
            failure = add(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Closes and forgets every prepared statement; returns what failed to close, or null. */
    private SQLException closeStatements() {
        SQLException failure = null;
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException e) {
                failure = add(failure, e);
            }
        }
        statements.clear();
        return failure;
    }

    private static SQLException add(SQLException failure, SQLException e) {
        if (failure == null) {
            return e;
        }
        failure.addSuppressed(e);
        return failure;
    }
}
