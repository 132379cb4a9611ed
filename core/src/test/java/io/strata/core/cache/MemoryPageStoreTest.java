package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicies;

import java.util.HashMap;
import java.util.Map;

class MemoryPageStoreTest extends AbstractPageStoreTest {
    @Override
    PageStore createStore() {
        return new MemoryPageStore(PAGE, (long) CAPACITY_PAGES * PAGE, EvictionPolicies.create("lru", 0), metrics);
    }

    @Override
    Map<PageId, Long> accounted(PageStore store) {
        Map<PageId, Long> out = new HashMap<>();
        ((MemoryPageStore) store).snapshot().forEach((id, length) -> out.put(id, (long) length));
        return out;
    }
}
