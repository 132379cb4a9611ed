package io.strata.core.cache;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The page store's settings for one mount, bound from {@link CacheOptions} and frozen.
 *
 * @param dirs the disk tier's directories with their quotas; empty when the disk tier is off
 * @param pageSize bytes per page
 * @param memoryBytes the memory tier's size; 0 when it is off
 * @param eviction the eviction policy's name, lower case
 * @param freeSpaceRatio the fraction of each directory's file system kept free
 * @param cacheOnWrite whether pages written through the mount are cached at flush
 * @param loadBlockBytes the block a random read's miss loads in the background; 0: none
 */
public record PageStoreConfig(List<DiskPageStore.Dir> dirs, int pageSize, long memoryBytes, String eviction,
                              double freeSpaceRatio, boolean cacheOnWrite, long loadBlockBytes) {
    public PageStoreConfig {
        dirs = List.copyOf(dirs);
        requireNonNull(eviction, "eviction is null");
        if (memoryBytes < 0) {
            throw new IllegalArgumentException("memory tier size is negative: " + memoryBytes);
        }
    }

    /**
     * Binds the options; {@code defaultDir} is the cache directory used when {@code local_data_cache}
     * is unset (the volume's own, under its state directory).
     *
     * @throws OptionException when the sizes do not match the directories, or the memory tier
     *     holds less than one page
     */
    public static PageStoreConfig from(Options options, Path defaultDir) {
        List<String> dirNames = options.get(CacheOptions.LOCAL_DATA_CACHE);
        List<Path> dirs = dirNames == null ? List.of(defaultDir) : dirNames.stream().map(Path::of).toList();
        List<DataSize> sizes = options.get(CacheOptions.LOCAL_DATA_CACHE_SIZE);
        if (sizes.size() != 1 && sizes.size() != dirs.size()) {
            throw new OptionException(String.format("option local_data_cache_size has %d sizes for %d cache"
                    + " directories; give one size for all or one per directory", sizes.size(), dirs.size()));
        }
        int pageSize = (int) options.get(CacheOptions.PAGE_SIZE).bytes();
        List<DiskPageStore.Dir> quotas = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            long quota = sizes.get(sizes.size() == 1 ? 0 : i).bytes();
            if (quota > 0) {
                quotas.add(new DiskPageStore.Dir(dirs.get(i), quota));
            }
        }
        long memory = options.get(CacheOptions.MEMORY_SIZE).bytes();
        if (memory > 0 && memory < pageSize) {
            throw new OptionException("option local_cache_memory_size=" + DataSize.ofBytes(memory)
                    + " holds no page of local_cache_page_size=" + DataSize.ofBytes(pageSize)
                    + "; make it at least one page, or 0 to turn the memory tier off");
        }
        return new PageStoreConfig(quotas, pageSize, memory,
                options.get(CacheOptions.EVICTION).toLowerCase(Locale.ROOT),
                options.get(CacheOptions.FREE_SPACE_RATIO), options.get(CacheOptions.CACHE_ON_WRITE),
                loadBlock(options, pageSize));
    }

    private static long loadBlock(Options options, int pageSize) {
        long block = options.get(CacheOptions.RANDOM_READ_LOAD_BLOCK).bytes();
        if (block > 0 && (block < pageSize || block % pageSize != 0)) {
            throw new OptionException("option random_read_load_block=" + DataSize.ofBytes(block)
                    + " is not a multiple of local_cache_page_size=" + DataSize.ofBytes(pageSize)
                    + "; give a multiple of the page size, or 0 to load no blocks");
        }
        return block;
    }

    /** Whether there is any tier at all. */
    public boolean enabled() {
        return !dirs.isEmpty() || memoryBytes > 0;
    }
}
