package io.strata.meta.jdbc;

import io.strata.meta.AbstractFsckTest;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.SqlDamage;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

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
