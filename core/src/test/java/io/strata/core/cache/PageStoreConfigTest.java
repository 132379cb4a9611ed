package io.strata.core.cache;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PageStoreConfigTest {
    final Path defaultDir = Path.of("/var/lib/strata/volumes/src-1234abcd/cache");
    final OptionRegistry registry = new OptionRegistry(List.of(new CacheOptions()));

    Options options(String... dashO) {
        return new OptionsLoader(registry).commandLine(List.of(dashO)).build();
    }

    @Test
    void defaultsAreOneDirectoryOf100GiBUnderTheVolumeStateWith1MiBPagesAnd64MiBOfMemory() {
        PageStoreConfig config = PageStoreConfig.from(Options.defaults(), defaultDir);
        assertEquals(List.of(new DiskPageStore.Dir(defaultDir, 100L << 30)), config.dirs());
        assertEquals(1 << 20, config.pageSize());
        assertEquals(64L << 20, config.memoryBytes());
        assertEquals("lru", config.eviction());
        assertEquals(0.1, config.freeSpaceRatio());
        assertTrue(config.cacheOnWrite());
    }

    @Test
    void directoriesAndSizesAreListsOnTheCommandLine() {
        PageStoreConfig config = PageStoreConfig.from(
                options("local_data_cache=/a,/b,local_cache_size=1GB,2GB,local_cache_eviction=LFU"), defaultDir);
        assertEquals(List.of(new DiskPageStore.Dir(Path.of("/a"), 1L << 30), new DiskPageStore.Dir(Path.of("/b"), 2L << 30)),
                config.dirs());
        assertEquals("lfu", config.eviction());
    }

    @Test
    void oneSizeAppliesToEveryDirectory() {
        PageStoreConfig config = PageStoreConfig.from(options("local_data_cache=/a,/b", "local_data_cache_size=64MB"),
                defaultDir);
        assertEquals(List.of(64L << 20, 64L << 20), config.dirs().stream().map(DiskPageStore.Dir::quotaBytes).toList());
    }

    @Test
    void sizesThatDoNotMatchTheDirectoriesAreRefused() {
        OptionException e = assertThrows(OptionException.class, () -> PageStoreConfig.from(
                options("local_data_cache=/a,/b,/c", "local_data_cache_size=1GB,2GB"), defaultDir));
        assertTrue(e.getMessage().contains("2 sizes for 3 cache directories"), e.getMessage());
    }

    @Test
    void zeroSizesTurnTiersOff() {
        PageStoreConfig config = PageStoreConfig.from(
                options("local_data_cache_size=0", "local_cache_memory_size=0"), defaultDir);
        assertFalse(config.enabled());
    }

    @Test
    void badValuesNameTheKey() {
        assertThrows(OptionException.class, () -> options("local_cache_eviction=fifo"));
        assertThrows(OptionException.class, () -> options("local_cache_page_size=1MiB,bogus"),
                "only list-valued options continue past a comma");
        assertThrows(OptionException.class, () -> options("free_space_ratio=1.5"));
        assertThrows(OptionException.class, () -> options("local_data_cache=relative/dir"));
        assertThrows(OptionException.class, () -> options("local_cache_page_size=1k"));
        OptionException e = assertThrows(OptionException.class, () -> PageStoreConfig.from(
                options("local_cache_memory_size=4KiB"), defaultDir));
        assertTrue(e.getMessage().contains("local_cache_memory_size"), e.getMessage());
        assertEquals(DataSize.ofMiB(1).bytes(), PageStoreConfig.from(options(), defaultDir).pageSize());
    }
}
