package io.strata.core.readahead;

import io.strata.core.buffer.LentBytes;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fetched range's block grid: chunks of any size land in the right blocks; views only within one block. */
class FetchedRangeTest {
    private static final int BLOCK = 100;

    private static byte[] bytes(int length, long seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }

    /** A range at {@code start} filled with {@code data} in chunks of {@code chunk} bytes. */
    private static FetchedRange filled(long start, byte[] data, int chunk) {
        FetchedRange range = FetchedRange.allocate(start, data.length, BLOCK);
        for (int at = 0; at < data.length; at += chunk) {
            assertTrue(range.put(ByteBuffer.wrap(data, at, Math.min(chunk, data.length - at))));
        }
        return range;
    }

    private static byte[] copy(FetchedRange range, long position, long limit, int room) {
        ByteBuffer dst = ByteBuffer.allocate(room);
        int n = range.copyTo(position, limit, dst);
        assertEquals(n, dst.position());
        return Arrays.copyOf(dst.array(), n);
    }

    @Test
    void chunksOfAnySizeReadBackAtEveryOffset() {
        byte[] data = bytes(1000, 1);
        for (int chunk : new int[] {1, 7, 100, 333, 1000}) {
            FetchedRange range = filled(250, data, chunk); // starts mid-block: blocks of 50, 100, ..., 50
            assertTrue(range.full());
            for (int from = 0; from < data.length; from += 37) {
                assertArrayEquals(Arrays.copyOfRange(data, from, Math.min(data.length, from + 260)),
                        copy(range, 250 + from, Long.MAX_VALUE, 260), "chunk " + chunk + ", offset " + from);
            }
        }
    }

    @Test
    void anAdoptedBodyReadsBackAtEveryOffsetAndSharesItsMemory() {
        byte[] data = bytes(1000, 4);
        byte[] body = new byte[1010];
        System.arraycopy(data, 0, body, 5, 1000);
        FetchedRange range = FetchedRange.allocate(250, 1000, BLOCK);
        ByteBuffer whole = ByteBuffer.wrap(body, 5, 1000);

        assertTrue(range.adopt(whole));
        assertTrue(range.full());
        assertFalse(whole.hasRemaining(), "taken");
        for (int from = 0; from < data.length; from += 37) {
            assertArrayEquals(Arrays.copyOfRange(data, from, Math.min(data.length, from + 260)),
                    copy(range, 250 + from, Long.MAX_VALUE, 260), "offset " + from);
        }
        ByteBuffer view = range.view(300, 100).bytes(); // the block [300, 400)
        body[5 + 50] ^= 1;
        assertEquals((byte) (data[50] ^ 1), view.get(0), "a view of the adopted memory, not a copy");
        assertFalse(range.put(ByteBuffer.allocate(1)), "full");
    }

    @Test
    void onlyAnEmptyRangeAdoptsAndOnlyABodyOfExactlyItsCapacity() {
        FetchedRange range = FetchedRange.allocate(0, 300, BLOCK);
        assertFalse(range.adopt(ByteBuffer.allocate(299)));
        assertFalse(range.adopt(ByteBuffer.allocate(301)));
        assertTrue(range.put(ByteBuffer.allocate(10)));
        ByteBuffer rest = ByteBuffer.allocate(290);
        assertFalse(range.adopt(ByteBuffer.allocate(300)));
        assertFalse(range.adopt(rest));
        assertEquals(290, rest.remaining(), "nothing taken");
        assertEquals(10, range.length());
    }

    @Test
    void copyStopsAtTheLimitTheRoomAndWhatArrived() {
        byte[] data = bytes(300, 2);
        FetchedRange range = FetchedRange.allocate(0, 500, BLOCK);
        range.put(ByteBuffer.wrap(data));
        assertFalse(range.full());
        assertEquals(300, range.length());
        assertArrayEquals(Arrays.copyOfRange(data, 10, 50), copy(range, 10, 50, 1000));
        assertArrayEquals(Arrays.copyOfRange(data, 10, 30), copy(range, 10, 1000, 20));
        assertArrayEquals(Arrays.copyOfRange(data, 250, 300), copy(range, 250, 1000, 1000));
        assertEquals(0, copy(range, 300, 1000, 1000).length, "nothing arrived there");
    }

    @Test
    void aChunkBeyondTheCapacityIsRefusedWhole() {
        FetchedRange range = FetchedRange.allocate(0, 150, BLOCK);
        assertTrue(range.put(ByteBuffer.wrap(bytes(100, 3))));
        ByteBuffer tooLong = ByteBuffer.wrap(bytes(51, 4));
        assertFalse(range.put(tooLong));
        assertEquals(100, range.length());
        assertEquals(51, tooLong.remaining(), "nothing taken from a refused chunk");
    }

    @Test
    void aViewWithinOneBlockHasTheBytesAndCannotChangeThem() {
        byte[] data = bytes(400, 5);
        FetchedRange range = filled(200, data, 64);
        ByteBuffer view = range.view(300, BLOCK).bytes();
        byte[] seen = new byte[view.remaining()];
        view.duplicate().get(seen);
        assertArrayEquals(Arrays.copyOfRange(data, 100, 200), seen);
        assertTrue(view.isReadOnly());
        assertEquals(0, view.position());
        ByteBuffer inner = range.view(310, 20).bytes();
        byte[] part = new byte[20];
        inner.get(part);
        assertArrayEquals(Arrays.copyOfRange(data, 110, 130), part);
    }

    @Test
    void noViewAcrossBlocksOrBeyondWhatArrived() {
        FetchedRange range = FetchedRange.allocate(0, 400, BLOCK);
        range.put(ByteBuffer.wrap(bytes(250, 6)));
        assertNull(range.view(50, 100), "spans two blocks");
        assertNull(range.view(200, 100), "only 50 of these bytes arrived");
        assertNull(range.view(300, 10), "none of these arrived");
        assertEquals(50, range.view(200, 50).remaining());
    }

    @Test
    void copyingFromBeforeTheRangeIsRefused() {
        FetchedRange range = filled(100, bytes(50, 7), 50);
        assertThrows(IllegalArgumentException.class,
                () -> range.copyTo(99, 200, ByteBuffer.allocate(10)));
    }

    @Test
    void anEmptyRangeHoldsNothing() {
        FetchedRange range = FetchedRange.allocate(1234, 0, BLOCK);
        assertTrue(range.full());
        assertEquals(0, copy(range, 1234, 2000, 10).length);
        assertNull(range.view(1234, 1));
    }

    @Test
    void lentMemoryGoesBackOnceTheRangeAndEveryViewLetGo() {
        AtomicInteger givenBack = new AtomicInteger();
        FetchedRange range = FetchedRange.allocate(0, 300, BLOCK);
        assertTrue(range.adopt(ByteBuffer.allocateDirect(300), givenBack::incrementAndGet));
        assertTrue(range.lent());
        LentBytes first = range.view(0, BLOCK);
        LentBytes second = range.view(100, BLOCK);

        range.release();
        range.release();
        first.close();
        assertEquals(0, givenBack.get(), "a view still holds it");
        second.close();
        assertEquals(1, givenBack.get());
    }

    @Test
    void aRangeThatDeclinesLentMemoryLeavesTheLeaseToTheCaller() {
        AtomicInteger givenBack = new AtomicInteger();
        FetchedRange range = FetchedRange.allocate(0, 300, BLOCK);
        assertFalse(range.adopt(ByteBuffer.allocateDirect(299), givenBack::incrementAndGet));
        assertFalse(range.lent());
        range.release();
        assertEquals(0, givenBack.get());
    }

    @Test
    void releasedLentMemoryIsNotViewedAgain() {
        FetchedRange range = FetchedRange.allocate(0, 100, BLOCK);
        range.adopt(ByteBuffer.allocateDirect(100), () -> { });
        range.release();
        assertThrows(IllegalStateException.class, () -> range.view(0, 10));
    }
}
