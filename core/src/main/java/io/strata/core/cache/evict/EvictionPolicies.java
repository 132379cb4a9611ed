package io.strata.core.cache.evict;

import java.util.List;
import java.util.Locale;

/** Finds an {@link EvictionPolicy} by the name users give in {@code local_cache_eviction}. */
public final class EvictionPolicies {
    /** Every policy name, the default first. */
    public static final List<String> NAMES = List.of("lru", "lfu", "tinylfu");

    private EvictionPolicies() {}

    /**
     * A new policy for a tier of {@code capacityBytes}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static EvictionPolicy create(String name, long capacityBytes) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "lru" -> new LruPolicy();
            case "lfu" -> new LfuPolicy();
            case "tinylfu" -> new TinyLfuPolicy(capacityBytes);
            default -> throw new IllegalArgumentException("unknown eviction policy '" + name + "'; expected one of "
                    + String.join(", ", NAMES));
        };
    }
}
