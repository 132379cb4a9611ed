package io.strata.core.cache;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.evict.EvictionPolicies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.strata.core.cache.AbstractPageStoreTest.PAGE;
import static io.strata.core.cache.AbstractPageStoreTest.content;
import static io.strata.core.cache.AbstractPageStoreTest.id;
import static io.strata.core.cache.AbstractPageStoreTest.page;
import static io.strata.core.cache.AbstractPageStoreTest.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory in front of disk: memory hits stay off the disk, evicted pages stay on disk, hot pages move up. */
class TieredTest {
    @TempDir
    Path dir;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final CacheMetrics metrics = new CacheMetrics(registry);
    final AtomicLong nanos = new AtomicLong();
    final MemoryPageStore memory = new MemoryPageStore(PAGE, 2L * PAGE, EvictionPolicies.create("lru", 0), metrics,
            nanos::get);
    final DiskPageStore disk = diskAt(dir(), 8);
    /** Short pages settle only when evicted or closed within a test: an hour is never reached. */
    final TieredPageStore store = new TieredPageStore(memory, disk, Runnable::run, metrics, Duration.ofHours(1));

    private Path dir() {
        try {
            return java.nio.file.Files.createTempDirectory("strata-tiered");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @AfterEach
    void close() {
        DiskPageStoreTest.assertIndexMatchesFiles(disk);
        store.close();
    }

    /** A disk tier of {@code pages} pages' quota in {@code path}. */
    DiskPageStore diskAt(Path path, int pages) {
        return new DiskPageStore(List.of(new DiskPageStore.Dir(path, DiskPageStoreTest.quota(pages))), 0.0, "lru",
                metrics, DiskSpace.SYSTEM, nanos::get);
    }

    double count(String name, String tier) {
        var counter = registry.find(name).tag("tier", tier).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aMemoryHitDoesNoDiskRead() {
        PageId id = id("f", 0);
        store.put(id, page(id));
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(content(id, PAGE), read(store, id, 0, PAGE));
        }
        assertEquals(5, count("strata.cache.hits", "memory"));
        assertEquals(0, count("strata.cache.hits", "disk"));
        assertEquals(0, count("strata.cache.misses", "disk"));
    }

    @Test
    void aWholePageOfAStreamIsStoredOnDiskOnly() {
        PageId id = id("f", 0);
        assertTrue(store.put(id, page(id), Reread.LATER));
        assertEquals(-1, memory.length(id));
        assertEquals(PAGE, disk.length(id));
        assertArrayEquals(content(id, PAGE), read(store, id, 0, PAGE));
        assertEquals(1, count("strata.cache.hits", "disk"));
    }

    @Test
    void aShortPageIsHeldInMemoryAloneUntilItSettles() {
        PageId small = id("small", 0);
        assertTrue(store.put(small, ByteBuffer.wrap(content(small, 1000)), Reread.LATER));
        assertEquals(1000, memory.length(small));
        assertEquals(-1, disk.length(small));
        assertArrayEquals(content(small, 1000), read(store, small, 0, 1000));
    }

    @Test
    void aShortPageSettlesToDiskOnItsOwnAfterItsDelay() throws InterruptedException {
        MemoryPageStore inFront = new MemoryPageStore(PAGE, 2L * PAGE, EvictionPolicies.create("lru", 0), metrics,
                nanos::get);
        try (TieredPageStore tiered = new TieredPageStore(inFront, disk, Runnable::run, metrics,
                Duration.ofMillis(20))) {
            PageId small = id("settles", 0);
            assertTrue(tiered.put(small, ByteBuffer.wrap(content(small, 1000))));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (disk.length(small) < 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(1000, disk.length(small));
            assertEquals(1000, inFront.length(small), "settling copies the page down; memory keeps it");
            assertArrayEquals(content(small, 1000), read(disk, small, 0, 1000));
        }
    }

    @Test
    void shortPagesOfManyLengthsSettleEachWithItsOwnBytes() {
        MemoryPageStore inFront = new MemoryPageStore(PAGE, 8L * PAGE, EvictionPolicies.create("lru", 0), metrics,
                nanos::get);
        Path below = dir();
        int[] lengths = {1000, 70_000, 300, PAGE - 1, 5000, 4096};
        List<PageId> ids = new ArrayList<>();
        try (TieredPageStore tiered = new TieredPageStore(inFront, diskAt(below, 16), Runnable::run, metrics,
                Duration.ofHours(1))) {
            for (int i = 0; i < lengths.length; i++) {
                PageId small = id("settles-" + i, 0);
                ids.add(small);
                assertTrue(tiered.put(small, ByteBuffer.wrap(content(small, lengths[i]))));
            }
        } // close settles them one after another through the one buffer, in no particular order
        try (DiskPageStore reopened = diskAt(below, 16)) {
            for (int i = 0; i < lengths.length; i++) {
                assertEquals(lengths[i], reopened.length(ids.get(i)));
                assertArrayEquals(content(ids.get(i), lengths[i]), read(reopened, ids.get(i), 0, lengths[i]));
            }
        }
    }

    @Test
    void aShortPageTheMemoryTierEvictsIsHandedDownToDisk() {
        PageId small = id("small", 0);
        assertTrue(store.put(small, ByteBuffer.wrap(content(small, 1000))));

        store.put(id("f", 0), page(id("f", 0))); // the memory tier holds two pages: the short one leaves
        store.put(id("f", 1), page(id("f", 1)));

        assertEquals(-1, memory.length(small));
        assertEquals(1000, disk.length(small));
        assertArrayEquals(content(small, 1000), read(store, small, 0, 1000));
    }

    @Test
    void aShortPageTheDiskAlreadyHoldsIsStoredInBothTiers() {
        PageId small = id("small", 0);
        assertTrue(disk.put(small, ByteBuffer.wrap(content(small, 1000)), Reread.SOON));
        assertTrue(store.put(small, ByteBuffer.wrap(content(small, 1000))));
        assertEquals(1000, memory.length(small));
        assertEquals(1000, disk.length(small));
    }

    @Test
    void closingSettlesTheShortPagesOnlyMemoryHolds() {
        Path cache = dir.resolve("closing");
        PageId small = id("small", 0);
        DiskPageStore first = diskAt(cache, 8);
        try (TieredPageStore tiered = new TieredPageStore(new MemoryPageStore(PAGE, 2L * PAGE,
                EvictionPolicies.create("lru", 0), metrics, nanos::get), first, Runnable::run, metrics,
                Duration.ofHours(1))) {
            assertTrue(tiered.put(small, ByteBuffer.wrap(content(small, 1000))));
            assertEquals(-1, first.length(small));
        }

        DiskPageStore reopened = diskAt(cache, 8);
        try {
            assertEquals(1000, reopened.length(small));
            assertArrayEquals(content(small, 1000), read(reopened, small, 0, 1000));
        } finally {
            reopened.close();
        }
    }

    @Test
    void everyShortPageReachesDiskOnceWhileSettlesAndEvictionsRace() throws Exception {
        Path cache = dir.resolve("racing");
        DiskPageStore below = diskAt(cache, 64);
        List<PageId> pages = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            pages.add(id("racing-" + i, 0));
        }
        // 16 slots of memory for 400 short pages: most leave by eviction, the rest by a 1 ms settle
        try (TieredPageStore tiered = new TieredPageStore(new MemoryPageStore(PAGE, 2L * PAGE,
                EvictionPolicies.create("lru", 0), metrics, nanos::get), below, Runnable::run, metrics,
                Duration.ofMillis(1))) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> puts = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int first = t;
                    puts.add(pool.submit(() -> {
                        for (int i = first; i < pages.size(); i += 4) {
                            assertTrue(tiered.put(pages.get(i), ByteBuffer.wrap(content(pages.get(i), 1000 + i))));
                        }
                    }));
                }
                for (var put : puts) {
                    put.get();
                }
            } finally {
                pool.shutdown();
            }
        }

        DiskPageStore reopened = diskAt(cache, 64);
        try {
            for (int i = 0; i < pages.size(); i++) {
                assertArrayEquals(content(pages.get(i), 1000 + i), read(reopened, pages.get(i), 0, 1000 + i),
                        "page " + i);
            }
        } finally {
            reopened.close();
        }
    }

    @Test
    void aDeletedShortPageIsNotHandedDownWhenMemoryEvictsIt() {
        PageId small = id("small", 0);
        store.put(small, ByteBuffer.wrap(content(small, 1000)));
        store.delete(small);
        store.put(id("f", 0), page(id("f", 0)));
        store.put(id("f", 1), page(id("f", 1)));
        assertEquals(-1, store.length(small));
    }

    @Test
    void aWholePageOfAStreamThatTheDiskDeclinesIsKeptInMemory() {
        DiskPageStore full = new DiskPageStore(List.of(new DiskPageStore.Dir(dir, 1)), 0.0, "lru", metrics,
                DiskSpace.SYSTEM, nanos::get);
        MemoryPageStore inFront = new MemoryPageStore(PAGE, 2L * PAGE, EvictionPolicies.create("lru", 0), metrics,
                nanos::get);
        try (TieredPageStore tiered = new TieredPageStore(inFront, full, Runnable::run, metrics)) {
            PageId id = id("f", 0);
            assertTrue(tiered.put(id, page(id), Reread.LATER));
            assertEquals(-1, full.length(id));
            assertArrayEquals(content(id, PAGE), read(tiered, id, 0, PAGE));
        }
    }

    @Test
    void pagesEvictedFromMemoryStayOnDisk() {
        for (int i = 0; i < 5; i++) {
            store.put(id("f", i), page(id("f", i)));
        }
        assertEquals(2, memory.pageCount());
        assertEquals(5, disk.pageCount());
        assertEquals(-1, memory.length(id("f", 0)));
        assertArrayEquals(content(id("f", 0), PAGE), read(store, id("f", 0), 0, PAGE));
        assertEquals(1, count("strata.cache.hits", "disk"));
    }

    @Test
    void aDiskPageReadInFullTwiceIsPromotedAndThenServedFromMemory() {
        for (int i = 0; i < 3; i++) {
            store.put(id("f", i), page(id("f", i)));
        }
        PageId cold = id("f", 0);
        assertEquals(-1, memory.length(cold));
        read(store, cold, 0, PAGE);
        assertEquals(-1, memory.length(cold), "one read is not hot");
        read(store, cold, 0, PAGE);
        assertEquals(PAGE, memory.length(cold), "promoted after the second full read");
        assertEquals(1, count("strata.cache.promotions", "memory"));
        double diskHits = count("strata.cache.hits", "disk");
        assertArrayEquals(content(cold, PAGE), read(store, cold, 0, PAGE));
        assertEquals(diskHits, count("strata.cache.hits", "disk"), "served from memory");
        assertTrue(disk.length(cold) > 0, "still on disk too");
    }

    @Test
    void smallReadsPromoteAPageOnlyOnceTheyAddUpToTwiceItsSize() {
        for (int i = 0; i < 3; i++) { // the memory tier holds two: page 0 is on disk only
            store.put(id("f", i), page(id("f", i)));
        }
        PageId page = id("f", 0);
        int small = PAGE / 8;
        for (int i = 0; i < 15; i++) {
            read(store, page, (i % 8) * small, small);
            assertEquals(-1, memory.length(page), "after " + (i + 1) + " reads of an eighth of the page");
        }
        read(store, page, 0, small);
        assertEquals(PAGE, memory.length(page), "promoted once two pages' worth was read");
    }

    @Test
    void aPromotionTheBusyFillPoolRefusedStartsAtThePagesNextFullRead() throws Exception {
        // A real pool, made busy: its one thread held and its queue of one taken
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1));
        CountDownLatch held = new CountDownLatch(1);
        pool.execute(() -> awaitQuietly(held));
        pool.execute(() -> {});
        MemoryPageStore ownMemory = new MemoryPageStore(PAGE, 2L * PAGE, EvictionPolicies.create("lru", 0), metrics,
                nanos::get);
        TieredPageStore busy = new TieredPageStore(ownMemory, diskAt(dir(), 8), pool, metrics, Duration.ofHours(1));
        try {
            for (int i = 0; i < 3; i++) { // the memory tier holds two: page 0 is on disk only
                busy.put(id("f", i), page(id("f", i)));
            }
            PageId page = id("f", 0);
            read(busy, page, 0, PAGE);
            read(busy, page, 0, PAGE); // hot: its promotion is refused
            held.countDown();
            while (pool.getActiveCount() > 0 || !pool.getQueue().isEmpty()) {
                Thread.sleep(1);
            }
            assertEquals(-1, ownMemory.length(page), "refused, not promoted");
            assertArrayEquals(content(page, PAGE), read(busy, page, 0, PAGE));
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
            assertEquals(PAGE, ownMemory.length(page), "promoted at the next full read, not after two more");
        } finally {
            pool.shutdownNow();
            busy.close();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aPromotedPageThatMemoryEvictedMustBeReadTwiceInFullAgainBeforeItsNextPromotion() {
        for (int i = 0; i < 3; i++) {
            store.put(id("f", i), page(id("f", i)));
        }
        PageId page = id("f", 0);
        read(store, page, 0, PAGE);
        read(store, page, 0, PAGE);
        assertEquals(PAGE, memory.length(page), "promoted");
        store.put(id("f", 3), page(id("f", 3)));
        store.put(id("f", 4), page(id("f", 4)));
        assertEquals(-1, memory.length(page), "evicted from memory by newer pages");

        read(store, page, 0, PAGE);
        assertEquals(-1, memory.length(page), "one read since its promotion is not hot");
        assertEquals(1, count("strata.cache.promotions", "memory"));
        read(store, page, 0, PAGE);
        assertEquals(PAGE, memory.length(page), "promoted again after the second full read");
        assertEquals(2, count("strata.cache.promotions", "memory"));
    }

    @Test
    void aPageReadMoreSlowlyThanTheMemoryTierTurnsOverIsNotPromoted() {
        for (int i = 0; i < 3; i++) { // the memory tier holds pages 1 and 2: page 0 is on disk only
            store.put(id("f", i), page(id("f", i)));
        }
        PageId slow = id("f", 0);
        advance(Duration.ofSeconds(1));
        read(store, slow, 0, PAGE);
        advance(Duration.ofMillis(500));
        read(store, id("f", 1), 0, PAGE); // memory's pages are read: the tier keeps a page ~0.5 s
        read(store, id("f", 2), 0, PAGE);
        advance(Duration.ofMillis(500));

        read(store, slow, 0, PAGE); // two pages' worth, but over 2 s

        assertEquals(-1, memory.length(slow), "not promoted: it would have left memory before its next read");
        assertEquals(0, count("strata.cache.promotions", "memory"));
    }

    @Test
    void aPageReadFasterThanTheMemoryTierTurnsOverIsPromoted() {
        for (int i = 0; i < 3; i++) {
            store.put(id("f", i), page(id("f", i)));
        }
        PageId hot = id("f", 0);
        advance(Duration.ofSeconds(2)); // memory's pages were stored 2 s ago and not read since
        read(store, hot, 0, PAGE);
        advance(Duration.ofMillis(100));

        read(store, hot, 0, PAGE);

        assertEquals(PAGE, memory.length(hot));
    }

    @Test
    void whileTheMemoryTierHasRoomAPageReadTwiceIsPromotedHoweverSlowly() {
        PageId page = id("f", 0);
        store.put(id("f", 1), page(id("f", 1))); // one of the tier's two slots used
        disk.put(page, page(page)); // on disk only
        read(store, page, 0, PAGE);
        advance(Duration.ofMinutes(10));

        read(store, page, 0, PAGE);

        assertEquals(PAGE, memory.length(page));
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }
}
