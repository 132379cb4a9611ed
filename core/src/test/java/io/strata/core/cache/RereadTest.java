package io.strata.core.cache;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.evict.EvictionPolicies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the page cache tells its store of each page it stores: how soon it is likely read again. */
class RereadTest {
    static final int PAGE = 4096;
    final CacheMetrics metrics = new CacheMetrics(new SimpleMeterRegistry());
    final Map<PageId, Reread> stored = new ConcurrentHashMap<>();
    final PageStore store = new Recording(new MemoryPageStore(PAGE, 64L * PAGE, EvictionPolicies.create("lru", 0), metrics));
    final PageCache cache = new PageCache(store, PAGE, false, 4 * PAGE, metrics, Runnable::run, null);
    final byte[] file = new byte[16 * PAGE];
    final PageSource source = (dst, offset) -> {
        int n = (int) Math.min(dst.remaining(), file.length - offset);
        dst.put(file, (int) offset, n);
        return n;
    };

    RereadTest() {
        new Random(5).nextBytes(file);
    }

    @AfterEach
    void close() {
        cache.close();
    }

    void read(long offset, int length) throws IOException {
        cache.read(source, "f", "v1", file.length, ByteBuffer.allocate(length), offset);
    }

    Reread storedAs(long index) {
        return stored.get(new PageId("f", "v1", index, PAGE));
    }

    @Test
    void aSequentialStreamsPagesAreReadAgainLater() throws IOException {
        for (long offset = 0; offset < 3 * PAGE; offset += PAGE / 2) {
            read(offset, PAGE / 2);
        }
        read(8 * PAGE, 2 * PAGE); // a read of pages, wherever it starts
        for (long index : new long[] {0, 1, 2, 8, 9}) {
            assertEquals(Reread.LATER, storedAs(index), "page " + index);
        }
    }

    @Test
    void aRandomReadsPageAndItsBlockAreReadAgainSoon() throws Exception {
        read(5 * PAGE + 100, 100);
        assertEquals(Reread.SOON, storedAs(5), "the page read");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (stored.size() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(5); // the block is loaded in the background
        }
        for (long index = 4; index < 8; index++) {
            assertEquals(Reread.SOON, storedAs(index), "page " + index + " of the block loaded around it");
        }
    }

    @Test
    void writtenPagesAreReadAgainLater() {
        PageId id = new PageId("f", "v2", 0, PAGE);
        cache.offer(id, ByteBuffer.wrap(file, 0, PAGE));
        assertEquals(Reread.LATER, stored.get(id));
    }

    /** A store that notes how each page was put. */
    private final class Recording implements PageStore {
        private final PageStore inner;

        Recording(PageStore inner) {
            this.inner = inner;
        }

        @Override
        public boolean put(PageId id, ByteBuffer data) {
            return put(id, data, Reread.SOON);
        }

        @Override
        public boolean put(PageId id, ByteBuffer data, Reread reread) {
            stored.put(id, reread);
            return inner.put(id, data);
        }

        @Override
        public int read(PageId id, int pageOffset, ByteBuffer dst) {
            return inner.read(id, pageOffset, dst);
        }

        @Override
        public int length(PageId id) {
            return inner.length(id);
        }

        @Override
        public java.util.List<String> tiers() {
            return inner.tiers();
        }

        @Override
        public void delete(PageId id) {
            inner.delete(id);
        }

        @Override
        public long usedBytes() {
            return inner.usedBytes();
        }

        @Override
        public long pageCount() {
            return inner.pageCount();
        }

        @Override
        public long capacityBytes() {
            return inner.capacityBytes();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
