package io.strata.core.cache;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link PageStore} does, whatever its tiers: the conformance suite. Each
 * implementation's subclass says how to build a store of {@link #CAPACITY_PAGES} full pages and
 * how to list what it holds; after every test the accounting is checked against that listing
 * (and, for stores with files, the listing against the files on disk).
 */
abstract class AbstractPageStoreTest {
    /** Two 64 KiB checksum chunks per page, so partial reads cross chunk boundaries. */
    static final int PAGE = 128 << 10;
    static final int CAPACITY_PAGES = 8;

    @TempDir
    Path dir;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final CacheMetrics metrics = new CacheMetrics(registry);
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private PageStore store;

    /** A store of {@link #CAPACITY_PAGES} full pages of {@link #PAGE} bytes, under {@link #dir}, LRU eviction. */
    abstract PageStore createStore();

    /** Page id → accounted bytes, as the store's index has them. */
    abstract Map<PageId, Long> accounted(PageStore store);

    /** Checks the index against anything outside the JVM (files); nothing by default. */
    void checkStorage(PageStore store) {}

    PageStore store() {
        if (store == null) {
            store = createStore();
        }
        return store;
    }

    @AfterEach
    void invariants() {
        if (store == null) {
            return;
        }
        Map<PageId, Long> pages = accounted(store);
        assertEquals(pages.values().stream().mapToLong(Long::longValue).sum(), store.usedBytes(),
                "accounted bytes equal the sum of the pages");
        assertEquals(pages.size(), store.pageCount(), "page count");
        assertTrue(store.usedBytes() <= store.capacityBytes(), "within capacity: " + store.usedBytes());
        checkStorage(store);
        store.close();
    }

    static PageId id(String file, long index) {
        return new PageId(file, "v1", index, PAGE);
    }

    /** The bytes of a page, derived from its id, so any read can be checked. */
    static byte[] content(PageId id, int length) {
        byte[] bytes = new byte[length];
        new Random(id.hashCode()).nextBytes(bytes);
        return bytes;
    }

    static ByteBuffer page(PageId id) {
        return ByteBuffer.wrap(content(id, PAGE));
    }

    static byte[] read(PageStore store, PageId id, int offset, int length) {
        ByteBuffer dst = ByteBuffer.allocate(length);
        int n = store.read(id, offset, dst);
        if (n < 0) {
            return null;
        }
        assertEquals(n, dst.position());
        byte[] out = new byte[n];
        dst.flip().get(out);
        return out;
    }

    static byte[] slice(byte[] bytes, int from, int length) {
        byte[] out = new byte[length];
        System.arraycopy(bytes, from, out, 0, length);
        return out;
    }

    /** Whether the store lends the pages the suite puts as regions of page files ({@link PageStore#region}). */
    boolean lendsRegions() {
        return false;
    }

    @Test
    void aMissingPageLendsNoRegion() {
        assertNull(store().region(id("f", 0), 0, 100, Reread.SOON));
    }

    @Test
    void aLentRegionHoldsThePagesBytes() throws IOException {
        Assumptions.assumeTrue(lendsRegions(), "this store keeps its pages in no file");
        PageId id = id("f", 2);
        store().put(id, page(id));
        try (PageRegion region = store().region(id, 1000, 70_000, Reread.SOON)) {
            assertEquals(70_000, region.length());
            ByteBuffer lent = ByteBuffer.allocate(region.length());
            while (lent.hasRemaining()) {
                assertTrue(region.file().read(lent, region.position() + lent.position()) > 0);
            }
            assertArrayEquals(slice(content(id, PAGE), 1000, 70_000), lent.array());
        }
    }

    @Test
    void aLentRegionStopsAtThePagesEnd() {
        Assumptions.assumeTrue(lendsRegions(), "this store keeps its pages in no file");
        PageId id = id("f", 2);
        store().put(id, page(id));
        try (PageRegion tail = store().region(id, PAGE - 100, 1000, Reread.SOON);
             PageRegion past = store().region(id, PAGE, 10, Reread.SOON)) {
            assertEquals(100, tail.length());
            assertEquals(0, past.length());
        }
    }

    @Test
    void aMissingPageIsAMissAndLeavesTheBufferAlone() {
        ByteBuffer dst = ByteBuffer.allocate(100).position(7);
        assertEquals(-1, store().read(id("f", 0), 0, dst));
        assertEquals(7, dst.position());
        assertEquals(-1, store().length(id("f", 0)));
    }

    @Test
    void aStoredPageReadsBackWhole() {
        PageId id = id("f", 3);
        ByteBuffer data = page(id);
        assertTrue(store().put(id, data));
        assertEquals(0, data.position(), "put leaves the source buffer's position alone");
        assertArrayEquals(content(id, PAGE), read(store(), id, 0, PAGE));
        assertEquals(PAGE, store().length(id));
    }

    @Test
    void anyRangeOfAPageReadsBack() {
        PageId id = id("f", 0);
        store().put(id, page(id));
        byte[] whole = content(id, PAGE);
        Random random = new Random(7);
        int[][] ranges = {{0, 1}, {PAGE - 1, 1}, {65_535, 2}, {65_536, 65_536}, {1000, PAGE - 2000}, {100, 4096}};
        for (int[] r : ranges) {
            assertArrayEquals(slice(whole, r[0], r[1]), read(store(), id, r[0], r[1]), "range " + r[0] + "+" + r[1]);
        }
        for (int i = 0; i < 50; i++) {
            int offset = random.nextInt(PAGE);
            int length = 1 + random.nextInt(PAGE - offset);
            assertArrayEquals(slice(whole, offset, length), read(store(), id, offset, length));
        }
    }

    @Test
    void aReadStopsAtThePagesEnd() {
        PageId id = id("tail", 9);
        byte[] bytes = content(id, 1000);
        store().put(id, ByteBuffer.wrap(bytes));
        assertArrayEquals(bytes, read(store(), id, 0, PAGE));
        assertArrayEquals(slice(bytes, 500, 500), read(store(), id, 500, 4096));
        assertEquals(0, read(store(), id, 1000, 10).length);
        assertEquals(0, read(store(), id, 5000, 10).length);
        assertEquals(1000, store().length(id));
    }

    @Test
    void aReadFillsTheBufferFromItsPosition() {
        PageId id = id("f", 1);
        store().put(id, page(id));
        ByteBuffer dst = ByteBuffer.allocate(300).position(100);
        assertEquals(200, store().read(id, 50, dst));
        assertEquals(300, dst.position());
        byte[] got = new byte[200];
        dst.position(100);
        dst.get(got);
        assertArrayEquals(slice(content(id, PAGE), 50, 200), got);
    }

    @Test
    void anotherVersionOrPageSizeIsAnotherPage() {
        PageId id = id("f", 0);
        store().put(id, page(id));
        assertEquals(-1, store().read(new PageId("f", "v2", 0, PAGE), 0, ByteBuffer.allocate(10)));
        assertEquals(-1, store().read(new PageId("f", "v1", 0, PAGE / 2), 0, ByteBuffer.allocate(10)));
        assertEquals(-1, store().read(new PageId("g", "v1", 0, PAGE), 0, ByteBuffer.allocate(10)));
    }

    @Test
    void putTwiceKeepsOnePage() {
        PageId id = id("f", 0);
        assertTrue(store().put(id, page(id)));
        long pages = store().pageCount();
        long used = store().usedBytes();
        assertTrue(store().put(id, page(id)));
        assertEquals(pages, store().pageCount());
        assertEquals(used, store().usedBytes());
    }

    @Test
    void deleteDropsThePage() {
        PageId id = id("f", 0);
        store().put(id, page(id));
        store().delete(id);
        assertEquals(-1, store().read(id, 0, ByteBuffer.allocate(10)));
        assertEquals(0, store().pageCount());
        store().delete(id);
    }

    @Test
    void fillingPastCapacityEvictsAndStaysWithinIt() {
        for (int i = 0; i < CAPACITY_PAGES * 3; i++) {
            PageId id = id("big", i);
            store().put(id, page(id));
            assertTrue(store().usedBytes() <= store().capacityBytes(), "after page " + i);
        }
        PageId last = id("big", CAPACITY_PAGES * 3 - 1);
        assertArrayEquals(content(last, PAGE), read(store(), last, 0, PAGE));
        assertEquals(-1, store().length(id("big", 0)), "the oldest page was evicted");
        assertTrue(metrics.registry().find("strata.cache.evictions").counters().stream()
                .mapToDouble(c -> c.count()).sum() >= CAPACITY_PAGES * 2 - 1);
    }

    @Test
    void theLeastRecentlyUsedPageGoesFirst() {
        for (int i = 0; i < CAPACITY_PAGES; i++) {
            store().put(id("f", i), page(id("f", i)));
        }
        assertTrue(read(store(), id("f", 0), 0, 1) != null);
        store().put(id("f", 100), page(id("f", 100)));
        assertTrue(store().length(id("f", 0)) >= 0, "recently read page kept");
        assertEquals(-1, store().length(id("f", 1)), "least recently used page evicted");
    }

    @Test
    void concurrentReadersNeverSeeWrongBytes() throws Exception {
        PageStore store = store();
        int hits = hitsOfThreads(4, random -> {
            int found = 0;
            for (int i = 0; i < 400; i++) {
                PageId id = id("shared", random.nextInt(CAPACITY_PAGES * 2));
                if (random.nextInt(3) == 0) {
                    store.put(id, page(id));
                } else {
                    int offset = random.nextInt(PAGE);
                    int length = 1 + random.nextInt(Math.min(PAGE - offset, 70_000));
                    byte[] got = read(store, id, offset, length);
                    if (got != null) {
                        assertArrayEquals(slice(content(id, PAGE), offset, length), got);
                        found++;
                    }
                }
            }
            return found;
        });
        assertTrue(hits > 0, "some reads hit");
        assertFalse(store().usedBytes() > store().capacityBytes());
    }

    /** One thread's share of a concurrent test: its steps, from its own seeded random; returns its hits. */
    @FunctionalInterface
    interface Racer {
        int run(Random random) throws Exception;
    }

    /** Runs {@code racer} on {@code threads} threads at once, thread t seeded with t; returns their hits summed. */
    static int hitsOfThreads(int threads, Racer racer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t;
                results.add(pool.submit(() -> racer.run(new Random(seed))));
            }
            int hits = 0;
            for (Future<Integer> result : results) {
                hits += result.get();
            }
            return hits;
        } finally {
            pool.shutdown();
        }
    }
}
