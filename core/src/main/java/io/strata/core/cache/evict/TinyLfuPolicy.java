package io.strata.core.cache.evict;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import io.strata.core.cache.PageId;

import java.util.ArrayList;
import java.util.List;

/**
 * Caffeine's W-TinyLFU: a small LRU window in front of a segmented LRU, and a frequency sketch
 * that admits a page into the main space only if it is looked up more often than the page it
 * would displace. One pass over a large file (a scan) then cannot flush a hot set.
 *
 * <p>Caffeine owns the order and evicts by weight on its own; its evictions are reported back
 * from {@link #onInsert}. Maintenance runs on the calling thread (a same-thread executor), and
 * the tier calls under its lock, so evictions happen exactly within the call that caused them.
 */
final class TinyLfuPolicy implements EvictionPolicy {
    private final Cache<PageId, Long> cache;
    private final List<PageId> evicted = new ArrayList<>();

    TinyLfuPolicy(long capacityBytes) {
        this.cache = Caffeine.newBuilder()
                .maximumWeight(Math.max(1, capacityBytes))
                .weigher((PageId id, Long bytes) -> (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes)))
                .executor(Runnable::run)
                .evictionListener((PageId id, Long bytes, com.github.benmanes.caffeine.cache.RemovalCause cause) -> {
                    if (id != null) {
                        evicted.add(id);
                    }
                })
                .build();
    }

    @Override
    public void onAccess(PageId id) {
        cache.getIfPresent(id);
    }

    @Override
    public List<PageId> onInsert(PageId id, long bytes) {
        cache.put(id, bytes);
        cache.cleanUp();
        if (evicted.isEmpty()) {
            return List.of();
        }
        List<PageId> out = List.copyOf(evicted);
        evicted.clear();
        return out;
    }

    @Override
    public void onRemove(PageId id) {
        cache.invalidate(id);
    }

    @Override
    public PageId victim() {
        Policy.Eviction<PageId, Long> eviction = cache.policy().eviction().orElseThrow();
        var coldest = eviction.coldest(1);
        return coldest.isEmpty() ? null : coldest.keySet().iterator().next();
    }

    @Override
    public String name() {
        return "tinylfu";
    }
}
