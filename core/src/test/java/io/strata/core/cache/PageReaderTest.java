package io.strata.core.cache;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.buffer.LentBytes;
import io.strata.core.buffer.LentBytesSink;
import io.strata.core.cache.evict.EvictionPolicies;
import io.strata.core.concurrent.Holders;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read path through the store: pages split and joined, misses fetched once, fills in the background. */
class PageReaderTest {
    static final int PAGE = 4096;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final CacheMetrics metrics = new CacheMetrics(registry);
    final MemoryPageStore store = new MemoryPageStore(PAGE, 64L * PAGE, EvictionPolicies.create("lru", 0), metrics);
    /** Fills wait here until a test runs them: nothing happens in the background unseen. */
    final Queue<Runnable> pendingFills = new ArrayDeque<>();
    final PageReader reader = new PageReader(store, PAGE, pendingFills::add, metrics);

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

    PageReaderTest() {
        new Random(42).nextBytes(file);
    }

    /** The test's source, passing each {@code willNeed} hint to {@code hints}. */
    PageSource hinting(BiConsumer<Long, Long> hints) {
        return new PageSource() {
            @Override
            public int read(ByteBuffer dst, long offset) throws IOException {
                return source.read(dst, offset);
            }

            @Override
            public void willNeed(long offset, long length) {
                hints.accept(offset, length);
            }
        };
    }

    byte[] read(long offset, int length) throws IOException {
        ByteBuffer dst = ByteBuffer.allocate(length);
        int n = reader.read(source, "f", "v1", dst, offset);
        assertEquals(n, dst.position());
        byte[] out = new byte[n];
        dst.flip().get(out);
        return out;
    }

    byte[] expected(long offset, int length) {
        int n = (int) Math.max(0, Math.min(length, file.length - offset));
        byte[] out = new byte[n];
        System.arraycopy(file, (int) Math.min(offset, file.length), out, 0, n);
        return out;
    }

    void runFills() {
        Runnable r;
        while ((r = pendingFills.poll()) != null) {
            r.run();
        }
    }

    double count(String name, String tier) {
        var c = registry.find(name).tag("tier", tier).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void readsAcrossPagesAndTheEndOfFileReturnTheFilesBytes() throws IOException {
        Random random = new Random(1);
        for (int i = 0; i < 200; i++) {
            long offset = random.nextInt(file.length + 10);
            int length = 1 + random.nextInt(3 * PAGE);
            assertArrayEquals(expected(offset, length), read(offset, length), offset + "+" + length);
            if (i % 7 == 0) {
                runFills();
            }
        }
        runFills();
        assertEquals(0, reader.inFlight());
    }

    @Test
    void aReadOfManyPagesTellsTheSourceOfEachRunOfMissingPagesBeforeFetching() throws IOException {
        read(3 * PAGE, 1); // page 3 cached: it splits the next read's misses into two runs
        runFills();
        List<String> hints = new ArrayList<>();
        PageSource hinted = hinting((offset, length) -> hints.add(offset / PAGE + "+" + length / PAGE));
        ByteBuffer dst = ByteBuffer.allocate(6 * PAGE - 100);
        reader.read(hinted, "f", "v1", dst, 100); // pages 0-5: 0-2 missing, 3 cached, 4-5 missing
        assertEquals(List.of("0+3", "4+2"), hints, "pages, as offset+count");
        assertArrayEquals(expected(100, 6 * PAGE - 100), Arrays.copyOf(dst.array(), dst.position()));
    }

    @Test
    void onlyAReadSpanningMoreThanOneMissingPageGivesAHint() throws IOException {
        List<Long> hints = new ArrayList<>();
        PageSource hinted = hinting((offset, length) -> hints.add(offset));
        reader.read(hinted, "f", "v1", ByteBuffer.allocate(PAGE), 0);             // page 0
        reader.read(hinted, "f", "v1", ByteBuffer.allocate(PAGE), 2 * PAGE - 10); // the end of page 1, most of 2
        assertEquals(List.of((long) PAGE), hints, "the read spanning two missing pages, from the first");
    }

    @Test
    void aPageWaitingForItsFillIsNotHintedAsMissing() throws IOException {
        read(0, PAGE); // page 0 fetched, its fill still queued: the source has handed its bytes over
        read(2 * PAGE, PAGE); // page 2 likewise
        List<String> hints = new ArrayList<>();
        PageSource hinted = hinting((offset, length) -> hints.add(offset / PAGE + "+" + length / PAGE));
        reader.read(hinted, "f", "v1", ByteBuffer.allocate(2 * PAGE), PAGE / 2); // pages 0 (in flight) and 1
        reader.read(hinted, "f", "v1", ByteBuffer.allocate(4 * PAGE), 2 * PAGE); // pages 2 (in flight) and 3-5
        assertEquals(List.of("3+3"), hints, "hinting an in-flight page fetches it again; pages as offset+count");
    }

    @Test
    void anAnnouncementHintsEachRunOfMissingPagesLongerThanOne() throws IOException {
        read(2 * PAGE, PAGE);
        runFills(); // page 2 stored
        read(5 * PAGE, PAGE); // page 5 fetched, its fill queued
        List<String> hints = new ArrayList<>();
        reader.announce(hinting((offset, length) -> hints.add(offset / PAGE + "+" + length / PAGE)),
                new PageId("f", "v1", 0, PAGE), 7 * PAGE);
        assertEquals(List.of("0+2", "3+2"), hints, "pages 0-1 and 3-4; page 6 alone is no run");
    }

    @Test
    void aMissFetchesTheWholeAlignedPageAndTheFillMakesItAHit() throws IOException {
        assertArrayEquals(expected(PAGE + 10, 20), read(PAGE + 10, 20));
        assertEquals(1, count("strata.cache.fetches", "ufs"));
        assertEquals(PAGE, count("strata.cache.bytes.fetched", "ufs"));
        runFills();
        int before = sourceReads.get();
        assertArrayEquals(expected(PAGE, PAGE), read(PAGE, PAGE));
        assertEquals(before, sourceReads.get(), "no fetch once filled");
        assertEquals(1, count("strata.cache.hits", "memory"));
    }

    @Test
    void aPageWaitingForItsFillServesReadsWithoutAnotherFetch() throws IOException {
        read(0, 100);
        assertEquals(1, pendingFills.size());
        assertArrayEquals(expected(100, 200), read(100, 200));
        assertArrayEquals(expected(300, PAGE - 300), read(300, PAGE - 300));
        assertEquals(1, count("strata.cache.fetches", "ufs"));
        assertEquals(2, count("strata.cache.fetches.shared", "ufs"));
        runFills();
        assertEquals(0, reader.inFlight());
    }

    @Test
    void theLastPartialPageIsCachedAndEndsTheRead() throws IOException {
        long last = 10L * PAGE;
        assertArrayEquals(expected(last, 5000), read(last, 5000));
        runFills();
        assertEquals(123, store.length(new PageId("f", "v1", 10, PAGE)));
        assertArrayEquals(expected(last + 100, 5000), read(last + 100, 5000));
        assertEquals(0, read(file.length, 10).length);
    }

    @Test
    void anotherVersionIsFetchedAgain() throws IOException {
        read(0, PAGE);
        runFills();
        ByteBuffer dst = ByteBuffer.allocate(PAGE);
        reader.read(source, "f", "v2", dst, 0);
        assertEquals(2, count("strata.cache.fetches", "ufs"));
    }

    @Test
    void aFullFillQueueHasTheReaderStoreTheFetchedPagesItself() throws IOException {
        PageReader busy = new PageReader(store, PAGE, r -> {
            throw new RejectedExecutionException("full");
        }, metrics);
        ByteBuffer dst = ByteBuffer.allocate(2 * PAGE);
        assertEquals(2 * PAGE, busy.read(source, "f", "v1", dst, 0));
        assertArrayEquals(expected(0, 2 * PAGE), dst.array());
        assertEquals(2, count("strata.cache.fills.inline", "ufs"));
        assertEquals(0, count("strata.cache.fills.dropped", "all"));
        assertEquals(0, busy.inFlight());
        assertEquals(2, store.pageCount());
    }

    @Test
    void aFullFillQueueDropsAPageOfferedInTheBackground() {
        PageReader busy = new PageReader(store, PAGE, r -> {
            throw new RejectedExecutionException("full");
        }, metrics);
        boolean[] done = {false};
        busy.fill(new PageId("f", "v1", 0, PAGE), ByteBuffer.wrap(expected(0, PAGE)), Reread.LATER, () -> done[0] = true);
        assertTrue(done[0]);
        assertEquals(1, count("strata.cache.fills.dropped", "all"));
        assertEquals(0, store.pageCount());
    }

    @Test
    void whileTheStoreTakesNoPagesAMissReadsJustItsBytes() throws IOException {
        PageStore refusing = new PageStore() {
            @Override public int read(PageId id, int pageOffset, ByteBuffer dst) { return -1; }
            @Override public boolean put(PageId id, ByteBuffer data) { return false; }
            @Override public boolean accepting() { return false; }
            @Override public int length(PageId id) { return -1; }
            @Override public void delete(PageId id) {}
            @Override public java.util.List<String> tiers() { return java.util.List.of(); }
            @Override public long usedBytes() { return 0; }
            @Override public long pageCount() { return 0; }
            @Override public long capacityBytes() { return 0; }
            @Override public void close() {}
        };
        PageReader around = new PageReader(refusing, PAGE, pendingFills::add, metrics);
        ByteBuffer dst = ByteBuffer.allocate(100);
        assertEquals(100, around.read(source, "f", "v1", dst, PAGE + 7));
        assertArrayEquals(expected(PAGE + 7, 100), dst.array());
        assertEquals(100, count("strata.cache.bytes.fetched", "ufs"));
        assertEquals(1, count("strata.cache.reads.bypassed", "ufs"));
        assertEquals(0, count("strata.cache.fetches", "ufs"));
        assertEquals(0, pendingFills.size());
    }

    @Test
    void aPageTheSourceHandsOverShortIsCompletedFromItsReads() throws IOException {
        PageSource halves = new PageSource() {
            @Override
            public int read(ByteBuffer dst, long offset) throws IOException {
                return source.read(dst, offset);
            }

            @Override
            public LentBytes readRange(long offset, int length) throws IOException {
                ByteBuffer half = ByteBuffer.allocate(length / 2); // as a view ending at a block boundary would be
                source.read(half, offset);
                return LentBytes.owned(half.flip());
            }
        };
        ByteBuffer dst = ByteBuffer.allocate(PAGE);
        assertEquals(PAGE, reader.read(halves, "f", "v1", dst, PAGE));
        assertArrayEquals(expected(PAGE, PAGE), dst.array());
        pendingFills.forEach(Runnable::run);
        assertArrayEquals(expected(PAGE, PAGE), read(PAGE, PAGE), "the whole page was stored");
        assertEquals(PAGE, count("strata.cache.bytes.fetched", "ufs"));
    }

    @Test
    void concurrentMissesOnOnePageShareOneFetch() throws Exception {
        CountDownLatch fetching = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger fetches = new AtomicInteger();
        PageSource slow = (dst, offset) -> {
            fetches.incrementAndGet();
            fetching.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            return source.read(dst, offset);
        };
        int readers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        try {
            Future<?>[] results = new Future<?>[readers];
            results[0] = pool.submit(() -> reader.read(slow, "f", "v1", ByteBuffer.allocate(100), 0));
            assertTrue(fetching.await(10, TimeUnit.SECONDS));
            for (int i = 1; i < readers; i++) {
                int offset = i * 500;
                results[i] = pool.submit(() -> {
                    ByteBuffer dst = ByteBuffer.allocate(100);
                    reader.read(slow, "f", "v1", dst, offset);
                    assertArrayEquals(expected(offset, 100), dst.array());
                    return null;
                });
            }
            while (count("strata.cache.fetches.shared", "ufs") < readers - 1) {
                Thread.onSpinWait(); // the others have joined the fetch in flight
            }
            release.countDown();
            for (Future<?> f : results) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1, fetches.get());
    }

    @Test
    void aFailedFetchFailsEveryReaderWaitingForItAndIsNotCached() {
        PageSource broken = (dst, offset) -> {
            throw new IOException("storage down");
        };
        IOException e = assertThrows(IOException.class, () -> reader.read(broken, "f", "v1", ByteBuffer.allocate(10), 0));
        assertEquals("storage down", e.getMessage());
        assertEquals(0, reader.inFlight());
        assertEquals(0, pendingFills.size());
    }

    /** A source lending each page as a view of memory that records when it went back. */
    class LendingSource implements PageSource {
        final List<Holders> lent = new ArrayList<>();
        final AtomicInteger givenBack = new AtomicInteger();

        @Override
        public int read(ByteBuffer dst, long offset) throws IOException {
            return source.read(dst, offset);
        }

        @Override
        public LentBytes readRange(long offset, int length) throws IOException {
            ByteBuffer page = ByteBuffer.allocateDirect(length);
            source.read(page, offset);
            Holders memory = new Holders(givenBack::incrementAndGet);
            lent.add(memory);
            LentBytes view = LentBytes.viewOf(memory, page.flip());
            memory.release(); // as a readahead part read through lets go of its bytes
            return view;
        }
    }

    @Test
    void aLentPageGoesBackOnceStoredAndOutOfFlight() throws IOException {
        LendingSource lending = new LendingSource();
        ByteBuffer dst = ByteBuffer.allocate(100);
        assertEquals(100, reader.read(lending, "f", "v1", dst, PAGE + 10));
        assertArrayEquals(expected(PAGE + 10, 100), dst.array());
        assertEquals(0, lending.givenBack.get(), "the fill holds it");

        runFills();

        assertEquals(1, lending.givenBack.get());
        assertEquals(0, reader.inFlight());
        assertArrayEquals(expected(PAGE, PAGE), read(PAGE, PAGE), "stored before it went back");
    }

    @Test
    void aReaderJoiningALentFetchCopiesUnderAHoldOfItsOwn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        LendingSource lending = new LendingSource() {
            @Override
            public LentBytes readRange(long offset, int length) throws IOException {
                try {
                    assertTrue(release.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return super.readRange(offset, length);
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<byte[]> first = pool.submit(() -> readFrom(lending, 0, 100));
            while (reader.inFlight() == 0) {
                Thread.onSpinWait();
            }
            Future<byte[]> second = pool.submit(() -> readFrom(lending, 200, 100));
            while (count("strata.cache.fetches.shared", "ufs") == 0) {
                Thread.onSpinWait();
            }
            release.countDown();
            assertArrayEquals(expected(0, 100), first.get(10, TimeUnit.SECONDS));
            assertArrayEquals(expected(200, 100), second.get(10, TimeUnit.SECONDS));
            assertEquals(0, lending.givenBack.get(), "the fill still holds it");
            runFills();
            assertEquals(1, lending.givenBack.get(), "given back once, when the fill let go");
            assertEquals(1, lending.lent.size(), "fetched once");
        } finally {
            pool.shutdownNow();
        }
    }

    private byte[] readFrom(PageSource from, long offset, int length) throws IOException {
        ByteBuffer dst = ByteBuffer.allocate(length);
        reader.read(from, "f", "v1", dst, offset);
        return Arrays.copyOf(dst.array(), dst.position());
    }

    /** A sink that takes what it is offered, recording where in the destination each range belongs. */
    static final class TakingSink implements LentBytesSink {
        final List<Integer> positions = new ArrayList<>();
        final List<LentBytes> taken = new ArrayList<>();

        @Override
        public boolean take(ByteBuffer dst, LentBytes bytes) {
            positions.add(dst.position());
            taken.add(bytes);
            return true;
        }

        @Override
        public void dropFrom(int position) {
            throw new AssertionError("nothing is read again here");
        }
    }

    @Test
    void aSinkTakesFetchedLentBytesInsteadOfACopyAndHoldsTheirMemoryUntilItLetsGo() throws IOException {
        LendingSource lending = new LendingSource();
        TakingSink sink = new TakingSink();
        ByteBuffer dst = ByteBuffer.allocate(PAGE + 200);
        int n = reader.read(lending, "f", "v1", dst, PAGE - 100, Reread.SOON, null, sink);

        assertEquals(PAGE + 200, n);
        assertEquals(List.of(0, 100, 100 + PAGE), sink.positions, "the three pages' bytes taken, each where it belongs");
        assertArrayEquals(new byte[PAGE + 200], dst.array(), "nothing copied into the destination");
        byte[] gathered = new byte[PAGE + 200];
        for (int i = 0; i < sink.taken.size(); i++) {
            sink.taken.get(i).bytes().get(gathered, sink.positions.get(i), sink.taken.get(i).remaining());
        }
        assertArrayEquals(expected(PAGE - 100, PAGE + 200), gathered);

        runFills();
        assertEquals(0, lending.givenBack.get(), "stored, but the sink still holds the pages");
        sink.taken.forEach(LentBytes::close);
        assertEquals(3, lending.givenBack.get());
        assertArrayEquals(expected(PAGE - 100, PAGE + 200), read(PAGE - 100, PAGE + 200), "and stored");
    }

    @Test
    void aSinkIsNotOfferedBytesOnTheHeap() throws IOException {
        TakingSink sink = new TakingSink();
        ByteBuffer dst = ByteBuffer.allocate(300);
        assertEquals(300, reader.read(source, "f", "v1", dst, 50, Reread.SOON, null, sink));
        assertEquals(List.of(), sink.positions);
        assertArrayEquals(expected(50, 300), dst.array());
    }
}
