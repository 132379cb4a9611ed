package io.strata.it;

import io.strata.meta.TestServers;

import java.nio.file.Path;

/** Two daemons sharing one PostgreSQL metastore (a real server, in a fresh schema). */
class PostgresMultiClientTest extends AbstractMultiClientTest {
    @Override
    protected String metaUrl(Path base) {
        return TestServers.postgres().freshVolume();
    }
}
