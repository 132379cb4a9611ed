package io.strata.it;

import java.nio.file.Path;

/** Two daemons sharing one SQLite file (WAL mode lets several processes use it). */
class SqliteMultiClientTest extends AbstractMultiClientTest {
    @Override
    protected String metaUrl(Path base) {
        return "sqlite://" + base.resolve("shared-meta.db");
    }
}
