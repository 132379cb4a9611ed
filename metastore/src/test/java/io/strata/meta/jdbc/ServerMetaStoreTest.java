package io.strata.meta.jdbc;

import io.strata.meta.AbstractSharedMetaStoreTest;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.MetaStores;
import io.strata.meta.TestDatabase;
import io.strata.meta.VolumeStats;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The conformance and shared-volume suites against a database server (a new volume per test),
 * plus what the JDBC engine does on every server: credentials, the format check, sharded usage.
 */
abstract class ServerMetaStoreTest extends AbstractSharedMetaStoreTest {
    protected String url;

    /** The test server, started on first use. */
    protected abstract TestDatabase server();

    /** Opens {@code url} with the environment given. */
    protected abstract MetaStore open(String url, Function<String, String> environment) throws IOException;

    /** The settings table's key column as the server's own SQL names it. */
    protected abstract String keyColumn();

    @Override
    protected MetaStore createStore() throws IOException {
        if (url == null) {
            url = server().freshVolume();
        }
        return MetaStores.open(url);
    }

    @Test
    void wrongPasswordFailsWithoutShowingAnyPassword() throws IOException {
        TestDatabase server = server();
        assumeTrue(server.password() != null, "the server takes no password");
        String wrong = "wrong-" + server.password();
        IOException failure = assertThrows(IOException.class,
                () -> MetaStores.open(server.url(server.user(), wrong)).close());
        assertFalse(failure.getMessage().contains(wrong), failure.getMessage());
        assertFalse(failure.getMessage().contains(server.password()), failure.getMessage());
        assertTrue(failure.getMessage().contains(server.currentVolume()), failure.getMessage());
    }

    @Test
    void passwordComesFromTheEnvironmentWhenTheUrlHasNone() throws IOException {
        TestDatabase server = server();
        String withoutPassword = server.url(server.user(), null);
        try (MetaStore other = open(withoutPassword,
                Map.of(MetaStoreUrls.PASSWORD_ENV, String.valueOf(server.password()))::get)) {
            assertEquals(new VolumeStats(1, 0), other.stats());
        }
    }

    @Test
    void newerFormatVersionIsRefused() throws IOException, SQLException {
        store.close();
        execute("UPDATE settings SET value = '99' WHERE " + keyColumn() + " = 'format_version'");
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("format version 99"), failure.getMessage());
        execute("UPDATE settings SET value = '1' WHERE " + keyColumn() + " = 'format_version'");
        store = createStore(); // the refused open changed nothing
    }

    @Test
    void databaseWithoutFormatVersionIsRefused() throws IOException, SQLException {
        store.close();
        execute("DELETE FROM settings");
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("not a Strata metastore"), failure.getMessage());
        execute("INSERT INTO settings (" + keyColumn() + ", value) VALUES ('format_version', '1')");
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

    protected void execute(String sql) throws SQLException {
        try (Connection connection = server().connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    protected String query(String sql) throws SQLException {
        try (Connection connection = server().connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next(), sql);
            return rows.getString(1);
        }
    }
}
