package io.strata.meta.jdbc.dialect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQLite specifics the engine relies on: how a taken key is reported, which paths are accepted,
 * and that the driver adds no statement of its own to an INSERT.
 */
final class SqliteDialectTest {
    @TempDir
    Path dir;

    @Test
    void primaryKeyViolationIsRecognised() throws Exception {
        SqliteDialect dialect = new SqliteDialect(dir.resolve("t.db"));
        try (Connection connection = dialect.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (a INTEGER NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b))");
            statement.execute("INSERT INTO t VALUES (1, 'x')");
            SQLException taken = assertThrows(SQLException.class, () -> statement.execute("INSERT INTO t VALUES (1, 'x')"));
            assertTrue(dialect.isUniqueViolation(taken), taken.getMessage());
            SQLException nullColumn = assertThrows(SQLException.class,
                    () -> statement.execute("INSERT INTO t VALUES (2, NULL)"));
            assertFalse(dialect.isUniqueViolation(nullColumn), nullColumn.getMessage());
        }
    }

    @Test
    void anInsertRunsNoStatementOfTheDriversForGeneratedKeys() throws Exception {
        SqliteDialect dialect = new SqliteDialect(dir.resolve("t.db"));
        try (Connection connection = dialect.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t (b) VALUES (?)")) {
                insert.setString(1, "x");
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    assertFalse(keys.next(), "the driver read last_insert_rowid() after the INSERT");
                }
            }
        }
    }

    @Test
    void relativePathIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new SqliteDialect(Path.of("meta.db")));
    }

    @Test
    void pathWithQuestionMarkIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new SqliteDialect(dir.resolve("a?b/meta.db")));
    }
}
