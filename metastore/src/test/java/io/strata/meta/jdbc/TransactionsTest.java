package io.strata.meta.jdbc;

import io.strata.meta.jdbc.dialect.SqliteDialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How transactions outlive their failures, on a real SQLite file. */
class TransactionsTest {
    @TempDir
    Path dir;

    /**
     * SQLITE_FULL is made real with a page limit on the connection (a disk that fills up): the
     * insert that met it fails, and once there is room the same insert, through the same cached
     * statement text, succeeds; sqlite-jdbc had left the failed statement unusable.
     */
    @Test
    void aWriteSucceedsOnceTheDatabaseHasRoomAgainAfterItWasFull() throws Exception {
        SqliteDialect dialect = new SqliteDialect(dir.resolve("meta.db"));
        try (Transactions transactions = new Transactions(dialect, dialect.open())) {
            transactions.write(rows -> execute(rows, "CREATE TABLE blobs (value BLOB NOT NULL)"));
            transactions.write(rows -> execute(rows, "PRAGMA max_page_count = 16"));

            IOException full = assertThrows(IOException.class, () -> {
                for (int i = 0; i < 1_000; i++) {
                    transactions.write(TransactionsTest::insert);
                }
            });
            assertTrue(full.getMessage().contains("SQLITE_FULL"), full.getMessage());

            transactions.write(rows -> execute(rows, "PRAGMA max_page_count = 100000"));
            transactions.write(TransactionsTest::insert);
            transactions.write(TransactionsTest::insert);
        }
    }

    private static Void insert(Rows rows) throws java.sql.SQLException {
        PreparedStatement insert = rows.session().prepare("INSERT INTO blobs (value) VALUES (?)");
        insert.setBytes(1, new byte[3_000]);
        assertEquals(1, insert.executeUpdate());
        return null;
    }

    private static Void execute(Rows rows, String sql) throws java.sql.SQLException {
        try (Statement statement = rows.session().connection().createStatement()) {
            statement.execute(sql);
        }
        return null;
    }
}
