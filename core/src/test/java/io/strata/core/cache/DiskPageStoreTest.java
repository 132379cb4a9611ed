package io.strata.core.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DiskPageStoreTest extends AbstractPageStoreTest {
    /** Quota for {@link #CAPACITY_PAGES} full test pages with their headers. */
    static long quota(int pages) {
        return (long) pages * (PAGE + PageFile.headerLength(id("shared", 0), PAGE) + 16);
    }

    @Override
    boolean lendsRegions() {
        return true;
    }

    @Override
    PageStore createStore() {
        return new DiskPageStore(List.of(new DiskPageStore.Dir(dir.resolve("cache"), quota(CAPACITY_PAGES))), 0.0,
                "lru", metrics, DiskSpace.SYSTEM, clock::get);
    }

    @Override
    Map<PageId, Long> accounted(PageStore store) {
        return ((DiskPageStore) store).snapshot();
    }

    @Override
    void checkStorage(PageStore store) {
        assertIndexMatchesFiles((DiskPageStore) store);
    }

    /** Every indexed page has its file, of its length, and no other page file exists; staging is empty. */
    static void assertIndexMatchesFiles(DiskPageStore store) {
        for (CacheDir cacheDir : store.dirs()) {
            Map<String, Long> expected = new TreeMap<>();
            cacheDir.snapshot().forEach((id, length) -> expected.put(cacheDir.pathOf(id).toString(), length));
            Map<String, Long> onDisk = new TreeMap<>();
            try (Stream<Path> files = Files.walk(cacheDir.root().resolve("pages"))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    onDisk.put(file.toString(), Files.size(file));
                }
                try (Stream<Path> staging = Files.list(cacheDir.root().resolve("staging"))) {
                    assertEquals(List.of(), staging.toList(), "staging leftovers");
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            assertEquals(expected, onDisk, "index of " + cacheDir.root() + " matches its files");
        }
    }
}
