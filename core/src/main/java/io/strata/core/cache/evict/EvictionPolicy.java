package io.strata.core.cache.evict;

import io.strata.core.cache.PageId;

import java.util.List;

/**
 * Decides which of a tier's pages leave first. One class per policy, chosen by name
 * ({@link EvictionPolicies#create}); the tier owns the pages and the byte accounting and calls
 * these methods under its own lock, so implementations need no synchronization of their own.
 */
public interface EvictionPolicy {
    /** A lookup of {@code id}, hit or miss (frequency-based policies count misses too). */
    void onAccess(PageId id);

    /**
     * {@code id} is about to become resident, weighing {@code bytes}. Returns the pages the policy
     * itself chose to evict on the way, which may include {@code id} (an admission policy
     * refusing it); policies that only order pages return an empty list.
     */
    List<PageId> onInsert(PageId id, long bytes);

    /** {@code id} left the tier (evicted, deleted, or found damaged). */
    void onRemove(PageId id);

    /** The resident page to evict next, or null when there is none. */
    PageId victim();

    /** The policy's name as users write it ({@code lru}, {@code lfu}, {@code tinylfu}). */
    String name();
}
