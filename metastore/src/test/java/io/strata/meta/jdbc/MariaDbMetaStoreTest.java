package io.strata.meta.jdbc;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.TestDatabase;
import io.strata.meta.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Runs the server suites against MariaDB, a new volume (database) per test, plus what only this dialect does. */
@ExtendWith(TestServers.class)
final class MariaDbMetaStoreTest extends ServerMetaStoreTest {
    @Override
    protected TestDatabase server() {
        return TestServers.mariadb();
    }

    @Override
    protected MetaStore open(String url, Function<String, String> environment) throws IOException {
        return JdbcEngines.MariaDb.open(url, environment);
    }

    @Override
    protected String keyColumn() {
        return "`key`";
    }

    @Test
    void urlParametersOtherThanCredentialsReachTheDriver() throws IOException {
        try (MetaStore other = MetaStores.open(url + "&connectTimeout=5000&connectionAttributes=program_name:strata")) {
            assertEquals(Inode.ROOT, other.getInode(Inode.ROOT).ino());
        }
    }

    @Test
    void mysqlUrlOpensTheSameVolume() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        try (MetaStore other = MetaStores.open(url.replace("jdbc:mariadb://", "jdbc:mysql://"))) {
            assertEquals(dir, other.lookup(Inode.ROOT, "d").orElseThrow().ino());
        }
    }

    @Test
    void namesAreStoredAsBytes() throws SQLException {
        assertEquals("varbinary", query("SELECT data_type FROM information_schema.columns"
                + " WHERE table_schema = DATABASE() AND table_name = 'dentries' AND column_name = 'name'"));
    }

    /** The _bin collations are PAD SPACE: with them, "a" and "a " would be one name. */
    @Test
    void namesThatDifferOnlyInTrailingSpacesAreTwoEntries() throws IOException {
        long a = file(Inode.ROOT, "a", 0).ino();
        long aSpace = file(Inode.ROOT, "a ", 0).ino();
        assertNotEquals(a, aSpace);
        assertEquals(a, store.lookup(Inode.ROOT, "a").orElseThrow().ino());
        assertEquals(aSpace, store.lookup(Inode.ROOT, "a ").orElseThrow().ino());
        assertEquals(List.of("a", "a "), store.readdir(Inode.ROOT, null, 10).stream().map(Dentry::name).toList());
    }
}
