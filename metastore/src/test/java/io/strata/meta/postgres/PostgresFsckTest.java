package io.strata.meta.postgres;

import io.strata.meta.AbstractFsckTest;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.SqlDamage;
import io.strata.meta.TestServers;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs the fsck conformance suite against a PostgreSQL volume (a schema of its own), damaged with
 * SQL. A counter is damaged in one of its 16 rows (shard 3), as a lost delta would be, so the
 * check has to add the rows up.
 */
@ExtendWith(TestServers.class)
final class PostgresFsckTest extends AbstractFsckTest {
    @Override
    protected MetaStore createStore() throws IOException {
        return MetaStores.open(TestServers.postgres().freshVolume());
    }

    @Override
    protected Damage damage(MetaStore store) {
        return new SqlDamage() {
            @Override
            protected Connection connect() throws SQLException {
                return TestServers.postgres().connect();
            }

            @Override
            public void setUsedBytes(long usedBytes) throws SQLException {
                update(1, "UPDATE counters SET used_bytes = used_bytes + (? - (SELECT sum(used_bytes) FROM counters))"
                        + " WHERE shard = 3", usedBytes);
            }

            @Override
            public void setInodeCount(long inodes) throws SQLException {
                update(1, "UPDATE counters SET inodes = inodes + (? - (SELECT sum(inodes) FROM counters))"
                        + " WHERE shard = 3", inodes);
            }
        };
    }
}
