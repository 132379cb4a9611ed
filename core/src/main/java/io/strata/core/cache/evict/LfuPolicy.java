package io.strata.core.cache.evict;

import io.strata.core.cache.PageId;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Least frequently used first, the least recently added among equals: pages grouped by hit
 * count, each group in insertion order. No aging: a page that was hot long ago stays ahead of
 * pages that are merely recent, which is the point of LFU and its weakness (see {@code tinylfu}
 * for a policy that forgets).
 */
final class LfuPolicy implements EvictionPolicy {
    private final Map<PageId, Long> counts = new HashMap<>();
    private final TreeMap<Long, LinkedHashSet<PageId>> byCount = new TreeMap<>();

    @Override
    public void onAccess(PageId id) {
        Long count = counts.get(id);
        if (count == null) {
            return;
        }
        unlink(id, count);
        counts.put(id, count + 1);
        link(id, count + 1);
    }

    @Override
    public List<PageId> onInsert(PageId id, long bytes) {
        if (!counts.containsKey(id)) {
            counts.put(id, 1L);
            link(id, 1L);
        }
        return List.of();
    }

    @Override
    public void onRemove(PageId id) {
        Long count = counts.remove(id);
        if (count != null) {
            unlink(id, count);
        }
    }

    @Override
    public PageId victim() {
        Map.Entry<Long, LinkedHashSet<PageId>> coldest = byCount.firstEntry();
        return coldest == null ? null : coldest.getValue().iterator().next();
    }

    @Override
    public String name() {
        return "lfu";
    }

    private void link(PageId id, long count) {
        byCount.computeIfAbsent(count, c -> new LinkedHashSet<>()).add(id);
    }

    private void unlink(PageId id, long count) {
        LinkedHashSet<PageId> group = byCount.get(count);
        group.remove(id);
        if (group.isEmpty()) {
            byCount.remove(count);
        }
    }
}
