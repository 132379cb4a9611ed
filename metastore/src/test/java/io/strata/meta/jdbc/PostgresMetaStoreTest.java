package io.strata.meta.jdbc;

import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.TestDatabase;
import io.strata.meta.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.sql.SQLException;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the server suites against PostgreSQL, a new volume (schema) per test, plus what only this dialect does. */
@ExtendWith(TestServers.class)
final class PostgresMetaStoreTest extends ServerMetaStoreTest {
    @Override
    protected TestDatabase server() {
        return TestServers.postgres();
    }

    @Override
    protected MetaStore open(String url, Function<String, String> environment) throws IOException {
        return JdbcEngines.Postgres.open(url, environment);
    }

    @Override
    protected String keyColumn() {
        return "key";
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
}
