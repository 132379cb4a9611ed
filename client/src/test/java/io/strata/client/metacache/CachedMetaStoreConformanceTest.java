package io.strata.client.metacache;

import io.strata.meta.AbstractMetaStoreTest;
import io.strata.meta.MetaStore;
import io.strata.meta.memory.MemoryMetaStore;

import java.time.Duration;

/** The caching decorator is a MetaStore like any engine: it passes the whole conformance suite. */
class CachedMetaStoreConformanceTest extends AbstractMetaStoreTest {
    @Override
    protected MetaStore createStore() {
        // A clock that never moves: every entry stays cached, the hardest case for staleness.
        return new CachedMetaStore(new MemoryMetaStore(), 10_000, Duration.ofHours(1), Duration.ofHours(1), () -> 0L);
    }
}
