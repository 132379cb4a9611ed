package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicies;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

class TieredPageStoreTest extends AbstractPageStoreTest {
    @Override
    PageStore createStore() {
        MemoryPageStore memory = new MemoryPageStore(PAGE, 2L * PAGE, EvictionPolicies.create("lru", 0), metrics);
        DiskPageStore disk = new DiskPageStore(
                List.of(new DiskPageStore.Dir(dir.resolve("cache"), DiskPageStoreTest.quota(CAPACITY_PAGES))), 0.0,
                "lru", metrics, DiskSpace.SYSTEM, clock::get);
        return new TieredPageStore(memory, disk, Runnable::run, metrics);
    }

    @Override
    Map<PageId, Long> accounted(PageStore store) {
        TieredPageStore tiered = (TieredPageStore) store;
        Map<PageId, Long> memory = new HashMap<>();
        tiered.memory().snapshot().forEach((id, length) -> memory.put(id, (long) length));
        Map<PageId, Long> disk = tiered.disk().snapshot();
        // Inclusive tiers: a page counts once per tier that holds it.
        Map<PageId, Long> both = new HashMap<>();
        memory.forEach((id, length) -> both.put(new PageId("memory:" + id.fileKey(), id.version(), id.index(),
                id.pageSize()), length));
        both.putAll(disk);
        return both;
    }

    @Override
    void checkStorage(PageStore store) {
        DiskPageStoreTest.assertIndexMatchesFiles(((TieredPageStore) store).disk());
    }
}
