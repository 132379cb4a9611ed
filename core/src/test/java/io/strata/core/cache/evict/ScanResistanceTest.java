package io.strata.core.cache.evict;

import io.strata.core.cache.PageId;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trace behind offering {@code tinylfu}: a hot set read over and over while large files are
 * scanned once, through a cache smaller than hot set plus scan. Prints the hit ratio of each
 * policy; asserts W-TinyLFU keeps the hot set where LRU lets the scans flush it.
 */
class ScanResistanceTest {
    static final int CAPACITY = 1000;     // pages
    static final int HOT = 600;           // hot pages, read with skew
    static final int ACCESSES = 400_000;
    static final double SCAN_SHARE = 0.5; // half the accesses are scan pages, each read once

    record Result(String policy, double hitRatio) {}

    static Result simulate(String name, long seed) {
        EvictionPolicy policy = EvictionPolicies.create(name, CAPACITY);
        Set<PageId> resident = new HashSet<>();
        Random random = new Random(seed);
        long scanNext = 0;
        int hits = 0;
        for (int i = 0; i < ACCESSES; i++) {
            PageId id = random.nextDouble() < SCAN_SHARE
                    ? new PageId("scan", "v", scanNext++, 1)
                    : new PageId("hot", "v", (long) (HOT * Math.pow(random.nextDouble(), 2)), 1);
            policy.onAccess(id);
            if (resident.contains(id)) {
                hits++;
                continue;
            }
            resident.add(id);
            for (PageId out : policy.onInsert(id, 1)) {
                resident.remove(out);
            }
            while (resident.size() > CAPACITY) {
                PageId victim = policy.victim();
                policy.onRemove(victim);
                resident.remove(victim);
            }
        }
        return new Result(name, (double) hits / ACCESSES);
    }

    @Test
    void tinyLfuKeepsTheHotSetThroughScans() {
        Result lru = simulate("lru", 11);
        Result lfu = simulate("lfu", 11);
        Result tiny = simulate("tinylfu", 11);
        System.out.printf("scan + hot set trace (capacity %d pages, hot set %d, %.0f%% scan): hit ratio lru %.3f,"
                        + " lfu %.3f, tinylfu %.3f (the best possible is %.3f)%n", CAPACITY, HOT, SCAN_SHARE * 100,
                lru.hitRatio(), lfu.hitRatio(), tiny.hitRatio(), 1 - SCAN_SHARE);
        assertTrue(tiny.hitRatio() > lru.hitRatio() + 0.05, "tinylfu " + tiny + " vs lru " + lru);
    }
}
