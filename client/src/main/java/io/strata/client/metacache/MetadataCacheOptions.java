package io.strata.client.metacache;

import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;

import java.time.Duration;
import java.util.List;

/**
 * Options of the heap metadata cache, the tier between the kernel's attr/entry cache and the
 * metastore.
 *
 * <p>The default expiry is short on purpose. The kernel already caches what applications ask
 * twice within {@code attr_timeout}; what this tier absorbs is the libfuse high-level API's habit
 * of passing whole paths, so that every call re-resolves every ancestor from the root. Those
 * lookups repeat within milliseconds, so 2 s catches nearly all of them, while a client sharing a
 * Redis or PostgreSQL volume sees another client's change within attr_timeout + 2 s.
 */
public final class MetadataCacheOptions implements OptionGroup {
    public static final Option<Integer> SIZE = Option.builder("local_metadata_cache_size", OptionType.INT)
            .defaultValue(50_000)
            .doc("Entries (inodes and name lookups; a directory's whole listing weighs 1 per 4 names and 1 per"
                    + " inode it keeps) kept in the heap metadata cache, about 170 bytes of heap each; 0 turns it off.")
            .check(n -> n >= 0, "a non-negative number of entries")
            .build();

    public static final Option<Duration> EXPIRE = Option.builder("local_metadata_cache_expire", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(2))
            .doc("How long a cached inode, name lookup or whole directory listing is trusted; bounds how late"
                    + " another client's change shows.")
            .check(d -> !d.isNegative(), "a non-negative duration")
            .build();

    public static final Option<Duration> NEGATIVE_EXPIRE = Option.builder("local_metadata_cache_negative_expire",
                    OptionType.DURATION)
            .defaultValue(Duration.ofMillis(500))
            .doc("How long a lookup that found nothing is trusted (a name another client creates shows"
                    + " after at most this).")
            .check(d -> !d.isNegative(), "a non-negative duration")
            .build();

    @Override
    public String title() {
        return "Metadata cache";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(SIZE, EXPIRE, NEGATIVE_EXPIRE);
    }
}
