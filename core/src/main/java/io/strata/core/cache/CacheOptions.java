package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicies;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Options of the page store (the data cache under the kernel's page cache); Alluxio's names. */
public final class CacheOptions implements OptionGroup {
    /** Comma-separated sizes, one per cache directory or one for all. */
    static final OptionType<List<DataSize>> SIZES = new OptionType<>(
            "a size, or one per directory (512MB,2GB)",
            text -> Arrays.stream(text.split(",")).map(String::trim).map(DataSize::parse).toList(),
            sizes -> sizes.stream().map(DataSize::toString).collect(Collectors.joining(",")));

    static final OptionType<List<String>> DIRS = new OptionType<>("directories, comma-separated (/ssd1/cache,/ssd2/cache)",
            text -> Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(),
            dirs -> String.join(",", dirs));

    static final OptionType<Double> RATIO = new OptionType<>("a fraction from 0 to 1 (0.1)",
            text -> Double.parseDouble(text.trim()), String::valueOf);

    public static final Option<List<String>> LOCAL_DATA_CACHE = Option.builder("local_data_cache", DIRS)
            .doc("Directories for cached pages, comma-separated; each used by one mount only. Default: the"
                    + " cache directory of the volume's state, state_dir/volumes/<name>-<hash>/cache.")
            .check(dirs -> !dirs.isEmpty() && dirs.stream().allMatch(d -> d.startsWith("/")),
                    "one or more absolute paths")
            .listValued()
            .build();

    public static final Option<List<DataSize>> LOCAL_DATA_CACHE_SIZE = Option.builder("local_data_cache_size", SIZES)
            .aliases("local_cache_size")
            .defaultValue(List.of(DataSize.ofGiB(100)))
            .doc("Quota of each cache directory: one size for all, or one per directory in order; a directory"
                    + " also keeps free_space_ratio of its file system free, so the default (as JuiceFS's) is in"
                    + " effect bounded by free space. 0 turns the disk tier off. For a local source directory the page cache is off unless this,"
                    + " local_data_cache or local_cache_memory_size is set.")
            .listValued()
            .build();

    public static final Option<DataSize> PAGE_SIZE = Option.builder("local_cache_page_size", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(1))
            .doc("Size of a cached page: the unit of fetching from the under storage and of caching.")
            .check(s -> s.bytes() >= 4096 && s.bytes() <= (64L << 20), "from 4KiB to 64MiB")
            .build();

    public static final Option<DataSize> MEMORY_SIZE = Option.builder("local_cache_memory_size", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(64))
            .doc("Size of the off-heap memory tier in front of the cache directories (direct memory: keep it"
                    + " under the JVM's -XX:MaxDirectMemorySize). 0 turns it off.")
            .build();

    public static final Option<String> EVICTION = Option.builder("local_cache_eviction", OptionType.STRING)
            .defaultValue("lru")
            .doc("Which pages leave first when a tier is full: lru (least recently used), lfu (least"
                    + " frequently used) or tinylfu (Caffeine's W-TinyLFU: a one-off scan does not flush"
                    + " the hot pages).")
            .check(name -> EvictionPolicies.NAMES.contains(name.toLowerCase(Locale.ROOT)),
                    "one of " + String.join(", ", EvictionPolicies.NAMES))
            .build();

    public static final Option<Double> FREE_SPACE_RATIO = Option.builder("free_space_ratio", RATIO)
            .defaultValue(0.1)
            .doc("Fraction of each cache directory's file system to keep free: pages are evicted (or not"
                    + " cached) rather than go below it.")
            .check(r -> r >= 0 && r < 1, "a fraction from 0 (inclusive) to 1 (exclusive)")
            .build();

    public static final Option<Boolean> CACHE_ON_WRITE = Option.builder("cache_on_write", OptionType.BOOLEAN)
            .defaultValue(true)
            .doc("Put whole pages written through the mount into the cache when the file is flushed, so"
                    + " reading back what was written needs no fetch.")
            .build();

    public static final Option<DataSize> RANDOM_READ_LOAD_BLOCK = Option.builder("random_read_load_block",
                    OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(64))
            .doc("A read shorter than a page that misses the cache (a random reader's) also loads the aligned"
                    + " block of this size around it into the cache in the background, once, as Alluxio caches a"
                    + " block after a partial read: later random reads near it hit the cache. A multiple of"
                    + " local_cache_page_size; 0 turns it off, and so does a cache that holds fewer than 8 blocks.")
            .build();

    @Override
    public String title() {
        return "Page cache";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(LOCAL_DATA_CACHE, LOCAL_DATA_CACHE_SIZE, PAGE_SIZE, MEMORY_SIZE, EVICTION, FREE_SPACE_RATIO,
                CACHE_ON_WRITE, RANDOM_READ_LOAD_BLOCK);
    }
}
