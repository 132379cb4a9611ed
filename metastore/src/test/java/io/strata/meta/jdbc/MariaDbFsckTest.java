package io.strata.meta.jdbc;

import io.strata.meta.AbstractFsckTest;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.SqlDamage;
import io.strata.meta.TestServers;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;

/** Runs the fsck conformance suite against a MariaDB volume (a database of its own), damaged with SQL. */
@ExtendWith(TestServers.class)
final class MariaDbFsckTest extends AbstractFsckTest {
    @Override
    protected MetaStore createStore() throws IOException {
        return MetaStores.open(TestServers.mariadb().freshVolume());
    }

    @Override
    protected Damage damage(MetaStore store) {
        return SqlDamage.sharded(() -> TestServers.mariadb().connect());
    }
}
