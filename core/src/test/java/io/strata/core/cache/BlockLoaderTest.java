package io.strata.core.cache;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.evict.EvictionPolicies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Random reads load their block in the background; sequential page-sized reads do not. */
class BlockLoaderTest {
    static final int PAGE = 4096;
    static final int BLOCK = 4 * PAGE;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final CacheMetrics metrics = new CacheMetrics(registry);
    final MemoryPageStore store = new MemoryPageStore(PAGE, 64L * PAGE, EvictionPolicies.create("lru", 0), metrics);
    final PageCache cache = new PageCache(store, PAGE, false, BLOCK, metrics, Runnable::run, null);

    final byte[] file = new byte[10 * PAGE + 123];
    final AtomicInteger sourceReads = new AtomicInteger();
    final PageSource source = (dst, offset) -> {
        sourceReads.incrementAndGet();
        if (offset >= file.length) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), file.length - offset);
        dst.put(file, (int) offset, n);
        return n;
    };

    BlockLoaderTest() {
        new Random(7).nextBytes(file);
    }

    @AfterEach
    void close() {
        cache.close();
    }

    byte[] read(long offset, int length) throws IOException {
        ByteBuffer dst = ByteBuffer.allocate(length);
        int n = cache.read(source, "f", "v1", file.length, dst, offset);
        byte[] out = new byte[n];
        dst.flip().get(out);
        return out;
    }

    long cachedPages() {
        long pages = 0;
        for (long index = 0; index * PAGE < file.length; index++) {
            if (store.length(new PageId("f", "v1", index, PAGE)) >= 0) {
                pages++;
            }
        }
        return pages;
    }

    void awaitCachedPages(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (cachedPages() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(expected, cachedPages());
    }

    @Test
    void aShortReadThatMissesLoadsItsWholeBlock() throws Exception {
        assertArrayEquals(java.util.Arrays.copyOfRange(file, 5 * PAGE + 10, 5 * PAGE + 110), read(5 * PAGE + 10, 100));
        awaitCachedPages(BLOCK / PAGE); // pages 4 to 7: the block around page 5
        for (long index = 4; index < 8; index++) {
            assertTrue(store.length(new PageId("f", "v1", index, PAGE)) >= 0, "page " + index + " loaded");
        }
        assertEquals(1.0, registry.find("strata.cache.blocks.loaded").tag("tier", "all").counter().count());
    }

    @Test
    void aLoadAnnouncesItsBlockToTheSourceBeforeFetchingIt() throws Exception {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        PageSource hinting = new PageSource() {
            @Override
            public int read(ByteBuffer dst, long offset) throws IOException {
                events.add("read " + offset / PAGE);
                return source.read(dst, offset);
            }

            @Override
            public void willNeed(long offset, long length) {
                events.add("hint " + offset / PAGE + "-" + ((offset + length) / PAGE - 1));
            }
        };
        cache.read(hinting, "f", "v1", file.length, ByteBuffer.allocate(100), 5 * PAGE + 10);
        awaitCachedPages(BLOCK / PAGE);
        // Pages 4 and 5 may be fetched, stored or missing when the load starts (the reader's own
        // fetch of page 5 races with it); pages 6 and 7 are missing, and announced before fetched.
        List<String> rest = events.stream()
                .filter(e -> e.equals("read 6") || e.equals("read 7") || e.startsWith("hint ") && e.endsWith("-7"))
                .toList();
        assertTrue(rest.size() == 3 && rest.get(0).startsWith("hint ") && rest.get(0).endsWith("-7")
                && rest.subList(1, 3).equals(List.of("read 6", "read 7")), "events: " + events);
    }

    @Test
    void theLastBlockEndsAtTheEndOfTheFile() throws Exception {
        read(9 * PAGE, 10);
        awaitCachedPages(3); // pages 8, 9 and the 123-byte page 10
        assertArrayEquals(java.util.Arrays.copyOfRange(file, 10 * PAGE, file.length), read(10 * PAGE, PAGE));
    }

    @Test
    void aBlockIsLoadedOnceHoweverManyReadsMissInIt() throws Exception {
        read(PAGE, 10);
        awaitCachedPages(4);
        int reads = sourceReads.get();
        store.delete(new PageId("f", "v1", 2, PAGE));
        read(2 * PAGE, 10); // a miss in the same block: fetched, no second load
        Thread.sleep(50);
        assertEquals(reads + 1, sourceReads.get());
        assertEquals(1.0, registry.find("strata.cache.blocks.loaded").tag("tier", "all").counter().count());
    }

    @Test
    void aSequentialStreamOfShortReadsLoadsNothingMore() throws Exception {
        for (int offset = 0; offset + 1000 <= 3 * PAGE; offset += 1000) {
            read(offset, 1000);
        }
        Thread.sleep(50);
        assertEquals(3, cachedPages());
    }

    @Test
    void readsOfAWholePageLoadNothingMore() throws Exception {
        read(0, PAGE);
        read(PAGE, PAGE);
        Thread.sleep(50);
        assertEquals(2, cachedPages());
    }
}
