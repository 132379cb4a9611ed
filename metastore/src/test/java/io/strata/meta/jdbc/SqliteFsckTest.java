package io.strata.meta.jdbc;

import io.strata.meta.AbstractFsckTest;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.SqlDamage;
import io.strata.meta.fsck.Fsck;
import io.strata.meta.fsck.FsckReport;
import io.strata.meta.fsck.Problem;
import io.strata.meta.fsck.ProblemKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the fsck conformance suite against a SQLite file, damaged with SQL on a connection of its own. */
final class SqliteFsckTest extends AbstractFsckTest {
    @TempDir
    Path dir;

    private Path database() {
        return dir.resolve("volume/meta.db");
    }

    @Override
    protected MetaStore createStore() throws IOException {
        return MetaStores.open("sqlite://" + database());
    }

    /**
     * The damage a metastore met in the bench (rows missing from the indexes of the names, after a
     * write-ahead log was deleted under an open store), made here by pointing two indexes at each
     * other's pages: the dry run reports only the storage, since a walk through a damaged index
     * would report what it lost as the namespace's problems; the repair rebuilds the indexes and
     * checks the namespace through them.
     */
    @Test
    void aDamagedIndexIsReportedBeforeTheNamespaceAndRebuiltByARepair() throws Exception {
        swapPages("dentries_by_ino", "sqlite_autoindex_xattrs_1");

        FsckReport dryRun = Fsck.check(store, null, false);
        assertFalse(dryRun.problems().isEmpty(), dryRun::toString);
        assertTrue(dryRun.problems().stream().allMatch(p -> p.kind() == ProblemKind.STORAGE_DAMAGED && !p.repaired()),
                dryRun::toString);
        assertTrue(dryRun.problems().stream().map(Problem::detail).anyMatch(d -> d.contains("dentries_by_ino")),
                dryRun::toString);

        FsckReport repair = Fsck.check(store, null, true);
        assertTrue(repair.clean(), repair::toString);
        assertTrue(repair.problems().stream().allMatch(Problem::repaired), repair::toString);
        assertEquals(4, repair.inodes(), "the namespace was checked after the indexes were rebuilt");
        FsckReport after = Fsck.check(store, null, false);
        assertEquals(java.util.List.of(), after.problems(), after::toString);
        long hard = store.lookup(Inode.ROOT, "hard").orElseThrow().ino();
        assertEquals(2, store.getInode(hard).nlink(), "an inode's names are found through the rebuilt index");
    }

    /** Points index {@code one} at the pages of index {@code other} and back, behind the store's back. */
    private void swapPages(String one, String other) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database());
                Statement statement = connection.createStatement()) {
            int onePage = rootPage(statement, one);
            int otherPage = rootPage(statement, other);
            int version = intValue(statement, "PRAGMA schema_version");
            statement.execute("PRAGMA writable_schema = ON");
            statement.executeUpdate("UPDATE sqlite_schema SET rootpage = " + otherPage + " WHERE name = '" + one + "'");
            statement.executeUpdate("UPDATE sqlite_schema SET rootpage = " + onePage + " WHERE name = '" + other + "'");
            statement.execute("PRAGMA writable_schema = OFF");
            statement.execute("PRAGMA schema_version = " + (version + 1)); // the store's connection reads the schema again
        }
    }

    private static int rootPage(Statement statement, String index) throws SQLException {
        return intValue(statement, "SELECT rootpage FROM sqlite_schema WHERE name = '" + index + "'");
    }

    private static int intValue(Statement statement, String query) throws SQLException {
        try (ResultSet result = statement.executeQuery(query)) {
            assertTrue(result.next(), query);
            return result.getInt(1);
        }
    }

    @Override
    protected Damage damage(MetaStore store) {
        return new SqlDamage() {
            @Override
            protected Connection connect() throws SQLException {
                return DriverManager.getConnection("jdbc:sqlite:" + database());
            }

            @Override
            public void setUsedBytes(long usedBytes) throws SQLException {
                update(1, "UPDATE counters SET value = ? WHERE name = 'used_bytes'", usedBytes);
            }

            @Override
            public void setInodeCount(long inodes) throws SQLException {
                update(1, "UPDATE counters SET value = ? WHERE name = 'inodes'", inodes);
            }
        };
    }
}
