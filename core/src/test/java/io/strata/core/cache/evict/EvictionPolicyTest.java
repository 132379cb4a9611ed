package io.strata.core.cache.evict;

import io.strata.core.cache.PageId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EvictionPolicyTest {
    static PageId id(int i) {
        return new PageId("f", "v", i, 4096);
    }

    @Test
    void lruEvictsTheLeastRecentlyUsed() {
        EvictionPolicy lru = EvictionPolicies.create("lru", 0);
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(), lru.onInsert(id(i), 1));
        }
        lru.onAccess(id(0));
        assertEquals(id(1), lru.victim());
        lru.onRemove(id(1));
        assertEquals(id(2), lru.victim());
        lru.onAccess(id(99)); // not resident: nothing changes
        assertEquals(id(2), lru.victim());
    }

    @Test
    void lfuEvictsTheLeastFrequentlyUsedOldestFirst() {
        EvictionPolicy lfu = EvictionPolicies.create("LFU", 0);
        for (int i = 0; i < 3; i++) {
            lfu.onInsert(id(i), 1);
        }
        lfu.onAccess(id(0));
        lfu.onAccess(id(0));
        lfu.onAccess(id(1));
        assertEquals(id(2), lfu.victim());
        lfu.onRemove(id(2));
        assertEquals(id(1), lfu.victim());
        lfu.onRemove(id(1));
        lfu.onRemove(id(0));
        assertNull(lfu.victim());
    }

    @Test
    void tinyLfuEvictsByWeightOnItsOwnAndReportsIt() {
        EvictionPolicy tiny = EvictionPolicies.create("tinylfu", 10);
        int evicted = 0;
        for (int i = 0; i < 30; i++) {
            evicted += tiny.onInsert(id(i), 1).size();
        }
        assertEquals(20, evicted);
        assertTrue(tiny.victim() != null);
    }

    @Test
    void anUnknownNameIsRefusedNamingTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EvictionPolicies.create("fifo", 0));
        assertTrue(e.getMessage().contains("lru, lfu, tinylfu"), e.getMessage());
    }
}
