package io.strata.core.cache.evict;

import io.strata.core.cache.PageId;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Least recently used first: the JDK's access-ordered {@link LinkedHashMap}, whose head is the
 * page unused the longest. Every access moves a page to the tail; no admission filter.
 */
final class LruPolicy implements EvictionPolicy {
    private final LinkedHashMap<PageId, Boolean> order = new LinkedHashMap<>(64, 0.75f, true);

    @Override
    public void onAccess(PageId id) {
        order.get(id);
    }

    @Override
    public List<PageId> onInsert(PageId id, long bytes) {
        order.put(id, Boolean.TRUE);
        return List.of();
    }

    @Override
    public void onRemove(PageId id) {
        order.remove(id);
    }

    @Override
    public PageId victim() {
        Iterator<PageId> eldest = order.keySet().iterator();
        return eldest.hasNext() ? eldest.next() : null;
    }

    @Override
    public String name() {
        return "lru";
    }
}
