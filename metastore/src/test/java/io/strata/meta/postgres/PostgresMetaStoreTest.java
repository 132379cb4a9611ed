package io.strata.meta.postgres;

import io.strata.meta.AbstractSharedMetaStoreTest;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.PostgresTestServer;
import io.strata.meta.TestServers;
import io.strata.meta.VolumeStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the conformance and shared-volume suites against PostgreSQL, a new volume (schema) per
 * test, plus what only this engine does.
 */
@ExtendWith(TestServers.class)
final class PostgresMetaStoreTest extends AbstractSharedMetaStoreTest {
    private String url;

    @Override
    protected MetaStore createStore() throws IOException {
        if (url == null) {
            url = TestServers.postgres().freshVolume();
        }
        return MetaStores.open(url);
    }

    @Test
    void wrongPasswordFailsWithoutShowingAnyPassword() throws IOException {
        PostgresTestServer server = TestServers.postgres();
        assumeTrue(server.password() != null, "the server takes no password");
        String wrong = "wrong-" + server.password();
        IOException failure = assertThrows(IOException.class,
                () -> MetaStores.open(server.url(server.user(), wrong)).close());
        assertFalse(failure.getMessage().contains(wrong), failure.getMessage());
        assertFalse(failure.getMessage().contains(server.password()), failure.getMessage());
        assertTrue(failure.getMessage().contains(server.currentSchema()), failure.getMessage());
    }

    @Test
    void passwordComesFromTheEnvironmentWhenTheUrlHasNone() throws IOException {
        PostgresTestServer server = TestServers.postgres();
        String withoutPassword = server.url(server.user(), null);
        try (MetaStore other = PostgresMetaStore.open(withoutPassword,
                Map.of(MetaStores.PASSWORD_ENV, String.valueOf(server.password()))::get)) {
            assertEquals(new VolumeStats(1, 0), other.stats());
        }
    }

    @Test
    void urlParametersOtherThanCredentialsReachTheDriver() throws IOException {
        try (MetaStore other = MetaStores.open(url + "&ApplicationName=strata-test&connectTimeout=5")) {
            assertEquals(Inode.ROOT, other.getInode(Inode.ROOT).ino());
        }
    }

    @Test
    void namesAreStoredWithTheCCollation() throws SQLException {
        assertEquals("C", query("SELECT collation_name FROM information_schema.columns"
                + " WHERE table_schema = current_schema() AND table_name = 'dentries' AND column_name = 'name'"));
    }

    @Test
    void newerFormatVersionIsRefused() throws IOException, SQLException {
        store.close();
        execute("UPDATE settings SET value = '99' WHERE key = 'format_version'");
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("format version 99"), failure.getMessage());
        execute("UPDATE settings SET value = '1' WHERE key = 'format_version'");
        store = createStore(); // the refused open changed nothing
    }

    @Test
    void databaseWithoutFormatVersionIsRefused() throws IOException, SQLException {
        store.close();
        execute("DELETE FROM settings");
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("not a Strata metastore"), failure.getMessage());
        execute("INSERT INTO settings (key, value) VALUES ('format_version', '1')");
        store = createStore();
    }

    @Test
    void usageIsSpreadOverCounterRowsAndAddsUp() throws IOException, SQLException {
        for (int i = 0; i < 50; i++) {
            file(Inode.ROOT, "f" + i, 10);
        }
        assertEquals(new VolumeStats(51, 500), store.stats());
        assertEquals("16", query("SELECT count(*) FROM counters"));
        assertTrue(Integer.parseInt(query("SELECT count(*) FROM counters WHERE inodes <> 0")) > 1,
                "creates spread over several counter rows");
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = TestServers.postgres().connect();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private String query(String sql) throws SQLException {
        try (Connection connection = TestServers.postgres().connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next(), sql);
            return rows.getString(1);
        }
    }
}
