package io.strata.meta.memory;

import io.strata.meta.AbstractMetaStoreTest;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;

import java.io.IOException;

/** Runs the conformance suite against the memory engine. */
final class MemoryMetaStoreTest extends AbstractMetaStoreTest {
    @Override
    protected MetaStore createStore() throws IOException {
        return MetaStores.open("memory://");
    }
}
