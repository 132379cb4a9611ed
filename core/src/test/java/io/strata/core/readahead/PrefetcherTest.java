package io.strata.core.readahead;

import io.strata.core.buffer.LentBytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The prefetcher's window logic and accounting, over a {@link FakeObject} (a fake fetcher that
 * records and steers every request; see its Javadoc): windows grow, shrink and stay per stream;
 * random reads do not read ahead; concurrent reads of one range share one request; the buffer
 * budget is never exceeded and a tiny one still completes; the tail is fetched once. After each
 * test, closing the prefetchers must give the whole budget back.
 */
class PrefetcherTest {
    private static final int KIB = 1 << 10;
    private static final int MIB = 1 << 20;
    /** Sizes scaled down 16x from the defaults: 64 KiB blocks, 512 KiB parts, 64 KiB first window. */
    private static final int BLOCK = 64 * KIB;
    private static final int PART = 512 * KIB;

    private final List<Readahead> engines = new ArrayList<>();
    private final List<Prefetcher> opened = new ArrayList<>();
    private final List<ExecutorService> executors = new ArrayList<>();

    @AfterEach
    void everyReservationIsGivenBack() throws InterruptedException {
        opened.forEach(Prefetcher::close);
        for (ExecutorService executor : executors) {
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        for (Readahead engine : engines) {
            assertEquals(0, engine.budget().used(), "bytes still reserved after close: " + engine.stats());
            assertTrue(engine.budget().peak() <= engine.budget().limit(), "budget exceeded");
        }
    }

    private static ReadaheadConfig config(long maxReadahead, boolean prefetch, long bufferSize) {
        return new ReadaheadConfig(maxReadahead, prefetch, bufferSize, BLOCK, PART, BLOCK, BLOCK, 4);
    }

    private Prefetcher open(ReadaheadConfig config, FakeObject object) {
        Readahead engine = new Readahead(config);
        engines.add(engine);
        return open(engine, object);
    }

    private Prefetcher open(Readahead engine, FakeObject object) {
        Prefetcher prefetcher = engine.open(object, object.data.length, "fake");
        opened.add(prefetcher);
        return prefetcher;
    }

    /** Reads {@code length} bytes at {@code offset} (looping over short reads) and checks them. */
    private static void readAndCheck(Prefetcher prefetcher, FakeObject object, long offset, int length)
            throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            int n = prefetcher.read(buffer, offset + buffer.position());
            if (n < 0) {
                break;
            }
        }
        int expected = (int) Math.min(length, Math.max(0, object.data.length - offset));
        assertEquals(expected, buffer.position(), "bytes read at " + offset);
        if (expected == 0) {
            return;
        }
        assertArrayEquals(object.slice(offset, expected), java.util.Arrays.copyOf(buffer.array(), expected),
                "bytes at " + offset);
    }

    private ExecutorService pool(int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        executors.add(pool);
        return pool;
    }

    @Test
    void sequentialReadsGrowTheWindowByDoublingUpToTheMaximum() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 1);
        Prefetcher prefetcher = open(config(2 * MIB, true, 64 * MIB), object);
        List<Long> windows = new ArrayList<>();
        int reads = 0;
        // From inside the file: a read of its first byte starts a stream at once (the test below).
        for (long offset = PART; offset < object.data.length; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
            windows.add(prefetcher.windows().get(0));
            reads++;
        }
        assertEquals(0L, windows.get(0), "one read is not a stream");
        assertEquals((long) BLOCK, windows.get(1), "the second read starts the first window");
        long previous = 0;
        Set<Long> seen = new HashSet<>();
        for (long window : windows) {
            assertTrue(window == previous || window == 2 * previous || previous == 0,
                    "the window only doubles: " + windows);
            assertTrue(window <= 2 * MIB, "never above max_readahead: " + windows);
            seen.add(window);
            previous = window;
        }
        assertEquals(Set.of(0L, 64L * KIB, 128L * KIB, 256L * KIB, 512L * KIB, 1L * MIB, 2L * MIB), seen);
        ReadaheadStats stats = prefetcher.stats();
        assertEquals(object.data.length - PART, object.requestedBytes(), "every byte fetched once: " + stats);
        assertTrue(object.requestCount() < reads / 4, object.requestCount() + " requests for " + reads + " reads");
        assertTrue(stats.readaheadRequests() >= object.requestCount() - 2, stats.toString());
        assertEquals(0, stats.unreadBytes(), stats.toString());
    }

    @Test
    void aReadFromTheFirstByteStartsAStreamWithAPartsWindowAtOnce() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 21);
        Prefetcher prefetcher = open(config(2 * MIB, true, 64 * MIB), object);
        readAndCheck(prefetcher, object, 0, 64 * KIB);
        assertEquals(List.of((long) PART), prefetcher.windows(), "a part's window from the first read");
        // The read's block, then the window up to the part grid past it: the rest of the first part and the second.
        assertEquals(List.of(new FakeObject.Request(0, BLOCK), new FakeObject.Request(BLOCK, PART - BLOCK),
                new FakeObject.Request(PART, PART)), object.requests());
        for (long offset = 64 * KIB; offset < 2 * PART; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
        }
        assertEquals(0, prefetcher.stats().unreadBytes(), prefetcher.stats().toString());
        long next = 0;
        for (FakeObject.Request request : object.requests()) {
            assertEquals(next, request.offset(), "each byte fetched once, in order: " + object.requests());
            next = request.offset() + request.length();
        }
        assertTrue(next > 2L * PART, "read ahead past what was read: " + object.requests());
    }

    @Test
    void aFirstReadInsideTheFileStartsNoWindow() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 22);
        Prefetcher prefetcher = open(config(2 * MIB, true, 64 * MIB), object);
        readAndCheck(prefetcher, object, 4 * PART, 64 * KIB);
        assertEquals(List.of(0L), prefetcher.windows());
        assertEquals(List.of(new FakeObject.Request(4 * PART, BLOCK)), object.requests());
    }

    @Test
    void aStreamWhoseWindowReachesAPartFetchesWholePartsOnThePartGrid() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 5);
        Prefetcher prefetcher = open(config(2 * PART, true, 64 * MIB), object);
        for (long offset = 0; offset < object.data.length; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
        }
        // Past the first windows (64 KiB, doubling up to two parts), every GET is one whole part.
        List<FakeObject.Request> pastTheFirstWindows = object.requests().stream()
                .filter(request -> request.offset() >= 4 * PART).toList();
        assertEquals((object.data.length - 4 * PART) / PART, pastTheFirstWindows.size(), object.requests().toString());
        for (FakeObject.Request request : pastTheFirstWindows) {
            assertEquals(0, request.offset() % PART, "on the part grid: " + request);
            assertEquals(PART, request.length(), "a whole part: " + request);
        }
        assertEquals(object.data.length, object.requestedBytes(), "every byte fetched once");
    }

    @Test
    void readaheadGoingUnreadShrinksTheWindow() throws IOException {
        FakeObject object = new FakeObject(32 * MIB, 2);
        Prefetcher prefetcher = open(config(2 * MIB, true, 64 * MIB), object);
        long offset = 0;
        while (prefetcher.windows().isEmpty() || prefetcher.windows().get(0) < 2 * MIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
            offset += 64 * KIB;
        }
        // Now the reader strides through its window, leaving most of what was read ahead unread.
        for (int i = 0; i < 12; i++) {
            offset += 3 * PART / 2;
            readAndCheck(prefetcher, object, offset, 4 * KIB);
        }
        assertTrue(prefetcher.windows().get(0) < 2 * MIB, "window " + prefetcher.windows());
        assertTrue(prefetcher.stats().unreadBytes() > 0, prefetcher.stats().toString());
    }

    @Test
    void aFullBudgetShrinksTheWindowInsteadOfWaiting() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 3);
        Prefetcher prefetcher = open(config(4 * MIB, true, 2 * MIB), object);
        for (long offset = 0; offset < 12 * MIB; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
        }
        // The 2 MiB budget cannot hold a 4 MiB window: readahead is refused and the window shrinks.
        assertTrue(prefetcher.stats().refusedReadahead() > 0, prefetcher.stats().toString());
        assertTrue(prefetcher.windows().get(0) < 4 * MIB, "window " + prefetcher.windows());
    }

    @Test
    void interleavedStreamsEachKeepTheirWindow() throws IOException {
        FakeObject object = new FakeObject(32 * MIB, 4);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        long a = 0;
        long b = 16 * MIB;
        long c = 8 * MIB + 4 * KIB; // a third stream, unaligned
        int bytesRead = 0;
        for (int i = 0; i < 100; i++) {
            readAndCheck(prefetcher, object, a, 64 * KIB);
            readAndCheck(prefetcher, object, b, 64 * KIB);
            readAndCheck(prefetcher, object, c, 32 * KIB);
            a += 64 * KIB;
            b += 64 * KIB;
            c += 32 * KIB;
            bytesRead += 160 * KIB;
        }
        assertEquals(List.of((long) MIB, (long) MIB, (long) MIB), prefetcher.windows());
        ReadaheadStats stats = prefetcher.stats();
        assertTrue(object.requestedBytes() <= bytesRead + 3L * (MIB + PART),
                "no stream lost its readahead to another: " + object.requestedBytes() + " bytes fetched for "
                        + bytesRead + " read; " + stats);
        assertTrue(object.requestCount() < 100, object.requestCount() + " requests for 300 reads");
    }

    @Test
    void streamsReadingAtOnceShareTheWindowAndOneLeftAloneGrowsBackToAllOfIt() throws IOException {
        long[] now = {0};
        Readahead engine = sharingEngine(() -> now[0]);
        FakeObject first = new FakeObject(32 * MIB, 6);
        FakeObject second = new FakeObject(32 * MIB, 7);
        Prefetcher one = open(engine, first);
        Prefetcher other = open(engine, second);
        readInTurns(one, first, other, second, 8 * MIB);
        assertEquals(List.of(4L * PART), one.windows(), "half of max_readahead each");
        assertEquals(List.of(4L * PART), other.windows());

        now[0] += ActiveStreams.IDLE_AFTER_NANOS + 1; // the other stream has stopped reading
        readOn(one, first, 8 * MIB, 24 * MIB);
        assertEquals(List.of(8L * PART), one.windows(), "all of max_readahead, alone");
    }

    @Test
    void aStreamsShareNeverFallsBelowTwoParts() throws IOException {
        Readahead engine = sharingEngine(System::nanoTime);
        List<FakeObject> objects = new ArrayList<>();
        List<Prefetcher> streams = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            objects.add(new FakeObject(8 * MIB, 10 + i));
            streams.add(open(engine, objects.get(i)));
        }
        for (long offset = 0; offset < 6 * MIB; offset += 64 * KIB) {
            for (int i = 0; i < 8; i++) {
                readAndCheck(streams.get(i), objects.get(i), offset, 64 * KIB);
            }
        }
        for (Prefetcher stream : streams) {
            assertEquals(List.of(2L * PART), stream.windows(), "an eighth of 8 parts would be one");
        }
    }

    @Test
    void aClosedFilesStreamNoLongerTakesAShare() throws IOException {
        Readahead engine = sharingEngine(() -> 0);
        FakeObject first = new FakeObject(32 * MIB, 8);
        FakeObject second = new FakeObject(32 * MIB, 9);
        Prefetcher one = open(engine, first);
        Prefetcher other = open(engine, second);
        readInTurns(one, first, other, second, 4 * MIB);
        other.close(); // the clock stands still: only the close can end the stream
        readOn(one, first, 4 * MIB, 20 * MIB);
        assertEquals(List.of(8L * PART), one.windows());
    }

    /** An engine whose streams share 8 parts of readahead, telling idleness by {@code nanoTime}. */
    private Readahead sharingEngine(LongSupplier nanoTime) {
        Readahead engine = new Readahead(config(8 * PART, true, 64 * MIB), nanoTime);
        engines.add(engine);
        return engine;
    }

    /** One stream on from {@code from} to {@code end}, in 64 KiB reads. */
    private static void readOn(Prefetcher prefetcher, FakeObject object, long from, long end) throws IOException {
        for (long offset = from; offset < end; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
        }
    }

    /** Two streams from the start of their files to {@code end}, a 64 KiB read of each in turn. */
    private static void readInTurns(Prefetcher one, FakeObject first, Prefetcher other, FakeObject second, long end)
            throws IOException {
        for (long offset = 0; offset < end; offset += 64 * KIB) {
            readAndCheck(one, first, offset, 64 * KIB);
            readAndCheck(other, second, offset, 64 * KIB);
        }
    }

    @Test
    void randomReadersStartingSessionsDoNotEvictASequentialStream() throws IOException {
        long streamEnd = 8 * MIB;
        FakeObject alone = new FakeObject(64 * MIB, 12);
        Prefetcher quiet = open(config(MIB, true, 64 * MIB), alone);
        for (long offset = 0; offset < streamEnd; offset += 64 * KIB) {
            readAndCheck(quiet, alone, offset, 64 * KIB);
        }

        FakeObject object = new FakeObject(64 * MIB, 12);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object); // 4 sessions at most
        Random random = new Random(12);
        readAndCheck(prefetcher, object, 0, 64 * KIB); // two reads in a row: a sequential stream
        for (long offset = 64 * KIB; offset < streamEnd; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
            for (int i = 0; i < 4; i++) { // as many random reads as there are sessions, each starting one
                long at = 32 * MIB + (random.nextInt(32 * MIB - BLOCK) & ~(4 * KIB - 1));
                readAndCheck(prefetcher, object, at, 4 * KIB);
            }
        }
        List<FakeObject.Request> stream = object.requests().stream().filter(r -> r.offset() < 32 * MIB).toList();
        assertEquals(alone.requests(), stream, "the stream is fetched as it is with no random reader beside it");
    }

    @Test
    void randomReadsFetchTheirBlockAndNeverReadAhead() throws IOException {
        FakeObject object = new FakeObject(64 * MIB, 5);
        Prefetcher prefetcher = open(config(2 * MIB, true, 64 * MIB), object);
        Random random = new Random(5);
        for (int i = 0; i < 200; i++) {
            long offset = random.nextInt(object.data.length - 2 * MIB) & ~(4 * KIB - 1);
            readAndCheck(prefetcher, object, offset, 4 * KIB);
        }
        assertEquals(0, prefetcher.stats().readaheadRequests(), prefetcher.stats().toString());
        for (FakeObject.Request request : object.requests()) {
            assertEquals(BLOCK, request.length(), "a random read fetches its block: " + request);
            assertEquals(0, request.offset() % BLOCK, "aligned: " + request);
        }
        assertTrue(object.requestCount() <= 200, object.requestCount() + " requests for 200 reads");
        assertTrue(prefetcher.windows().stream().allMatch(w -> w == 0), "windows " + prefetcher.windows());
    }

    @Test
    void withoutPrefetchARandomReadFetchesJustItsBytes() throws IOException {
        FakeObject object = new FakeObject(8 * MIB, 6);
        Prefetcher prefetcher = open(config(2 * MIB, false, 64 * MIB), object);
        readAndCheck(prefetcher, object, 3 * MIB + 100, 4 * KIB);
        readAndCheck(prefetcher, object, object.data.length - 8, 8);
        assertEquals(List.of(new FakeObject.Request(3 * MIB + 100, 4 * KIB),
                new FakeObject.Request(object.data.length - 8, 8)), object.requests());
    }

    @Test
    void withoutReadaheadSequentialReadsFetchJustWhatIsRead() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 7);
        Prefetcher prefetcher = open(config(0, false, 64 * MIB), object);
        for (long offset = 0; offset < object.data.length; offset += 128 * KIB) {
            readAndCheck(prefetcher, object, offset, 128 * KIB);
        }
        assertEquals(32, object.requestCount());
        assertEquals(object.data.length, object.requestedBytes());
        assertEquals(0, prefetcher.stats().readaheadRequests());
    }

    @Test
    void concurrentReadsOfOneRangeShareOneRequest() throws Exception {
        FakeObject object = new FakeObject(4 * MIB, 8).hold();
        Prefetcher prefetcher = open(config(MIB, false, 64 * MIB), object);
        ExecutorService pool = pool(8);
        List<Future<?>> reads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            reads.add(pool.submit(() -> {
                readAndCheck(prefetcher, object, MIB, 256 * KIB);
                return null;
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (prefetcher.stats().joinedReads() < 7 && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // the seven others are waiting for the first one's request
        }
        assertEquals(7, prefetcher.stats().joinedReads());
        object.releaseHeld();
        for (Future<?> read : reads) {
            assertDone(read);
        }
        assertEquals(List.of(new FakeObject.Request(MIB, 256 * KIB)), object.requests());
    }

    @Test
    void aReadOverlappingARequestInFlightFetchesOnlyTheRest() throws Exception {
        FakeObject object = new FakeObject(4 * MIB, 9).hold();
        Prefetcher prefetcher = open(config(MIB, false, 64 * MIB), object);
        ExecutorService pool = pool(2);
        long base = PART; // inside the file: a read at its first byte would read ahead
        Future<?> first = pool.submit(() -> {
            readAndCheck(prefetcher, object, base, 100 * KIB);
            return null;
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (object.requestCount() < 1 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        Future<?> second = pool.submit(() -> {
            readAndCheck(prefetcher, object, base + 50 * KIB, 100 * KIB);
            return null;
        });
        while (object.requestCount() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        object.releaseHeld();
        assertDone(first);
        assertDone(second);
        assertEquals(List.of(new FakeObject.Request(base, 100 * KIB), new FakeObject.Request(base + 100 * KIB, 50 * KIB)),
                object.requests());
    }

    @Test
    void bytesInFlightNeverExceedATinyBudgetAndEveryReadCompletes() throws Exception {
        FakeObject object = new FakeObject(16 * MIB, 10);
        ScheduledExecutorService network = Executors.newScheduledThreadPool(2);
        executors.add(network);
        object.completeOn(task -> network.schedule(task, 1, TimeUnit.MILLISECONDS));
        long budget = 3 * BLOCK; // smaller than one part, one window, and most reads below
        Readahead engine = new Readahead(config(4 * MIB, true, budget));
        engines.add(engine);
        Prefetcher one = open(engine, object);
        Prefetcher two = open(engine, object);
        ExecutorService pool = pool(6);
        List<Future<?>> readers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            int thread = t;
            Prefetcher prefetcher = t % 2 == 0 ? one : two;
            readers.add(pool.submit(() -> {
                Random random = new Random(thread);
                long sequential = thread * 2L * MIB;
                for (int i = 0; i < 60; i++) {
                    if (thread < 3) {
                        readAndCheck(prefetcher, object, sequential, 128 * KIB);
                        sequential += 128 * KIB;
                    } else {
                        readAndCheck(prefetcher, object, random.nextInt(object.data.length), 1 + random.nextInt(MIB));
                    }
                }
                return null;
            }));
        }
        for (Future<?> reader : readers) {
            assertDone(reader);
        }
        assertTrue(object.peakInFlight() <= budget, "in flight at most " + object.peakInFlight());
        assertTrue(engine.budget().peak() <= budget, "reserved at most " + engine.budget().peak());
    }

    @Test
    void aReadLargerThanTheBudgetComesBackShortAndTheLoopCompletes() throws IOException {
        FakeObject object = new FakeObject(2 * MIB, 11);
        Prefetcher prefetcher = open(config(MIB, true, 64 * KIB), object);
        ByteBuffer buffer = ByteBuffer.allocate(MIB);
        assertEquals(64 * KIB, prefetcher.read(buffer, 0), "cut to the budget");
        readAndCheck(prefetcher, object, 0, 2 * MIB);
    }

    @Test
    void aReadNearTheEndFetchesTheWholeTailOnce() throws IOException {
        int size = 10 * BLOCK + 123;
        FakeObject object = new FakeObject(size, 12);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        readAndCheck(prefetcher, object, size - 8, 8);              // Parquet: footer length and magic
        readAndCheck(prefetcher, object, size - 8 - 3000, 3000);    // the footer
        readAndCheck(prefetcher, object, size - BLOCK, 100);        // the last column chunk's end
        assertEquals(List.of(new FakeObject.Request(9L * BLOCK, BLOCK + 123)), object.requests());
        assertEquals(-1, prefetcher.read(ByteBuffer.allocate(10), size));
        ByteBuffer past = ByteBuffer.allocate(1000);
        assertEquals(123, prefetcher.read(past, 10L * BLOCK), "short at the end");
    }

    /** Reads {@code length} bytes at {@code offset} with {@link Prefetcher#readRange} and checks them. */
    private static ByteBuffer readRangeAndCheck(Prefetcher prefetcher, FakeObject object, long offset, int length)
            throws IOException {
        ByteBuffer range = prefetcher.readRange(offset, length).bytes();
        int expected = (int) Math.min(length, Math.max(0, object.data.length - offset));
        assertEquals(expected, range.remaining(), "bytes at " + offset);
        assertTrue(range.isReadOnly());
        byte[] seen = new byte[expected];
        range.duplicate().get(seen);
        assertArrayEquals(object.slice(offset, expected), seen, "bytes at " + offset);
        return range;
    }

    @Test
    void wholeBlockRangesReadSequentiallyAreReadAheadAndReleaseTheirParts() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 16);
        Readahead engine = new Readahead(config(MIB, true, 64 * MIB));
        engines.add(engine);
        Prefetcher prefetcher = open(engine, object);
        for (long offset = 0; offset < object.data.length; offset += BLOCK) {
            readRangeAndCheck(prefetcher, object, offset, BLOCK);
        }
        assertTrue(object.requests().stream().anyMatch(r -> r.length() == PART), "read ahead in whole parts");
        assertEquals(object.data.length, object.requestedBytes(), "every byte fetched once");
        assertEquals(0, engine.budget().used(), "parts read through by views are released");
    }

    @Test
    void willNeedRequestsTheWholeRangeAtOnceAndItsReadsFetchItNoMore() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 18).hold();
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        prefetcher.willNeed(BLOCK, 5 * PART);
        assertEquals(List.of(new FakeObject.Request(BLOCK, PART - BLOCK), new FakeObject.Request(PART, PART),
                new FakeObject.Request(2 * PART, PART), new FakeObject.Request(3 * PART, PART),
                new FakeObject.Request(4 * PART, PART), new FakeObject.Request(5 * PART, BLOCK)),
                object.requests(), "every part on the part grid, all before any read");
        object.releaseHeld();
        for (long offset = BLOCK; offset < BLOCK + 5 * PART; offset += BLOCK) {
            readRangeAndCheck(prefetcher, object, offset, BLOCK);
        }
        assertEquals(6, object.requests().stream().filter(r -> r.offset() < BLOCK + 5 * PART).count(),
                "the reads joined the hinted parts: " + object.requests());
    }

    @Test
    void aHintNoLongerThanAStreamsFirstWindowIsLeftToTheStreams() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 20);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        prefetcher.willNeed(0, BLOCK);
        assertEquals(List.of(), object.requests());
        for (long offset = 0; offset < PART; offset += BLOCK) {
            readRangeAndCheck(prefetcher, object, offset, BLOCK);
        }
        assertTrue(object.requests().stream().anyMatch(r -> r.offset() >= PART),
                "the stream read ahead: " + object.requests());
    }

    @Test
    void willNeedFetchesOnlyWhatNoPartCoversAndWhatTheBudgetHasRoomFor() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 19).hold();
        Prefetcher prefetcher = open(config(MIB, true, 2 * PART), object);
        prefetcher.willNeed(0, 2 * BLOCK);
        prefetcher.willNeed(0, 4 * PART);
        assertEquals(List.of(new FakeObject.Request(0, 2 * BLOCK), new FakeObject.Request(2 * BLOCK, PART - 2 * BLOCK),
                new FakeObject.Request(PART, PART)), object.requests(), "the covered blocks skipped, then the budget full");
        object.releaseHeld();
        for (long offset = 0; offset < 4 * PART; offset += BLOCK) { // the rest is fetched as it is read
            readRangeAndCheck(prefetcher, object, offset, BLOCK);
        }
        assertEquals(3, object.requests().stream().filter(r -> r.offset() < 2 * PART).count(),
                "the hinted bytes were not fetched again: " + object.requests());
    }

    @Test
    void rangesAcrossBlocksOrPartsAreCopiedWhole() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 17);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        readRangeAndCheck(prefetcher, object, BLOCK / 2, BLOCK);          // two blocks of one part
        readRangeAndCheck(prefetcher, object, PART - 100, 300);           // two parts
        readRangeAndCheck(prefetcher, object, 0, 3 * PART);               // many parts
    }

    @Test
    void rangesAtTheEndAreShortThenEmpty() throws IOException {
        int size = 3 * BLOCK + 10;
        FakeObject object = new FakeObject(size, 18);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        readRangeAndCheck(prefetcher, object, 3L * BLOCK, BLOCK);
        assertEquals(0, prefetcher.readRange(size, BLOCK).remaining());
        assertEquals(0, prefetcher.readRange(size + 5L, BLOCK).remaining());
    }

    @Test
    void aFailedRequestFailsItsReadsAndTheNextReadAsksAgain() throws IOException {
        FakeObject object = new FakeObject(MIB, 13).failNext(1);
        Prefetcher prefetcher = open(config(MIB, true, 64 * MIB), object);
        long offset = 3 * BLOCK; // inside the file: a read at its first byte would read ahead
        IOException e = assertThrows(IOException.class, () -> prefetcher.read(ByteBuffer.allocate(4096), offset));
        assertTrue(e.getMessage().contains("injected failure"), e.getMessage());
        readAndCheck(prefetcher, object, offset, 4096);
        assertEquals(2, object.requestCount());
    }

    @Test
    void closingDropsTheBuffersAndAbandonsRequestsInFlight() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 14);
        Readahead engine = new Readahead(config(4 * MIB, true, 64 * MIB));
        engines.add(engine);
        Prefetcher prefetcher = engine.open(object, object.data.length, "fake");
        for (long offset = 0; offset < 2 * MIB; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
        }
        object.hold();
        readAndCheck(prefetcher, object, 2 * MIB, 64 * KIB); // tops the window up: requests held in flight
        assertTrue(engine.budget().used() > 0);
        prefetcher.close();
        assertEquals(0, engine.budget().used());
        assertEquals(0, prefetcher.partCount());
        IOException e = assertThrows(IOException.class, () -> prefetcher.read(ByteBuffer.allocate(1), 0));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void lentPartsGoBackOnceReadThroughAndEveryViewIsClosed() throws IOException {
        FakeObject object = new FakeObject(4 * MIB, 21).lend();
        Readahead engine = new Readahead(config(MIB, true, 64 * MIB));
        engines.add(engine);
        Prefetcher prefetcher = open(engine, object);
        LentBytes kept = prefetcher.readRange(0, BLOCK);
        for (long offset = BLOCK; offset < object.data.length; offset += BLOCK) {
            try (LentBytes range = prefetcher.readRange(offset, BLOCK)) {
                assertArrayEquals(object.slice(offset, BLOCK), bytes(range.bytes()), "bytes at " + offset);
            }
        }
        assertEquals(0, engine.budget().used(), "every part read through");
        assertEquals(object.lent.get() - 1, object.givenBack.get(), "all but the part a view still holds");
        assertArrayEquals(object.slice(0, BLOCK), bytes(kept.bytes()), "a view outlives its part");
        kept.close();
        assertEquals(object.lent.get(), object.givenBack.get());
    }

    @Test
    void closingGivesBackLentPartsFetchedAndStillArriving() throws IOException {
        FakeObject object = new FakeObject(16 * MIB, 22).lend();
        Readahead engine = new Readahead(config(4 * MIB, true, 64 * MIB));
        engines.add(engine);
        Prefetcher prefetcher = engine.open(object, object.data.length, "fake");
        for (long offset = 0; offset < 2 * MIB; offset += 64 * KIB) {
            readAndCheck(prefetcher, object, offset, 64 * KIB);
        }
        object.hold();
        readAndCheck(prefetcher, object, 2 * MIB, 64 * KIB); // requests held in flight
        prefetcher.close();
        object.releaseHeld();
        assertTrue(object.lent.get() > 0);
        assertEquals(object.lent.get(), object.givenBack.get());
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    @Test
    void aWaitingReaderTakesRoomFromAnIdleFilesReadahead() throws Exception {
        FakeObject object = new FakeObject(16 * MIB, 15);
        Readahead engine = new Readahead(config(2 * MIB, true, 3 * MIB));
        engines.add(engine);
        Prefetcher idle = open(engine, object);
        for (long offset = 0; offset < 2 * MIB; offset += 64 * KIB) {
            readAndCheck(idle, object, offset, 64 * KIB);
        }
        long held = engine.budget().used();
        assertTrue(held > MIB, "the idle file's readahead holds " + held + " bytes");
        Prefetcher busy = open(engine, object);
        CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
            try {
                readAndCheck(busy, object, 8 * MIB, 2 * MIB); // needs 2 MiB at once: more than is free
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        read.get(10, TimeUnit.SECONDS);
        assertTrue(engine.stats().reclaimedBytes() > 0, engine.stats().toString());
    }

    @Test
    void randomMixesOfReadsFromManyThreadsReturnTheRightBytes() throws Exception {
        FakeObject object = new FakeObject(8 * MIB + 77, 16);
        ScheduledExecutorService network = Executors.newScheduledThreadPool(2);
        executors.add(network);
        object.completeOn(task -> network.schedule(task, 200, TimeUnit.MICROSECONDS));
        Prefetcher prefetcher = open(config(MIB, true, MIB + BLOCK), object);
        ExecutorService pool = pool(4);
        List<Future<?>> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int seed = 100 + t;
            readers.add(pool.submit(() -> {
                Random random = new Random(seed);
                long position = random.nextInt(object.data.length);
                for (int i = 0; i < 300; i++) {
                    if (random.nextInt(4) == 0) {
                        position = random.nextInt(object.data.length + 1000); // a seek, sometimes past the end
                    }
                    int length = random.nextBoolean() ? 4 * KIB : 1 + random.nextInt(300 * KIB);
                    readAndCheck(prefetcher, object, position, length);
                    position += length;
                }
                return null;
            }));
        }
        for (Future<?> reader : readers) {
            assertDone(reader);
        }
    }

    private static void assertDone(Future<?> future) {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("read failed or hung", e);
        }
    }
}
