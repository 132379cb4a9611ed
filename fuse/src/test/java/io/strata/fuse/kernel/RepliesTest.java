package io.strata.fuse.kernel;

import io.strata.core.buffer.LentBytes;
import io.strata.core.concurrent.Holders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A READ's payload sent partly from lent memory: the reply the kernel reads (here from a pipe) is
 * the payload whole and in order, and the lent memory goes back once it is written, or when the
 * reply is an error instead.
 */
class RepliesTest {
    private static final long UNIQUE = 91;
    private static final int PAYLOAD = 12 << 10;

    private final ByteBuffer in = ByteBuffer.allocateDirect(PAYLOAD + 4096).order(ByteOrder.nativeOrder());
    private final Request request = new Request(in);
    private final AtomicInteger givenBack = new AtomicInteger();
    private final byte[] expected = new byte[PAYLOAD];
    private FuseDevice writeEnd;
    private FuseDevice readEnd;
    private Replies out;

    @BeforeEach
    void aReadRequestAndAPipeForItsReply() {
        int[] fds = new int[2];
        assertEquals(0, LibC.get().pipe2(fds, LibC.O_CLOEXEC | LibC.O_NONBLOCK));
        readEnd = FuseDevice.adopt(fds[0]);
        writeEnd = FuseDevice.adopt(fds[1]);
        out = new Replies(writeEnd, request, null);
        int length = Request.HEADER_SIZE + 40;
        in.putInt(0, length).putInt(4, Opcode.READ).putLong(8, UNIQUE).putLong(16, 5)
                .putInt(24, 0).putInt(28, 0).putInt(32, 0).putInt(36, 0);
        assertTrue(request.decode(length));
        new Random(3).nextBytes(expected);
    }

    @AfterEach
    void closePipe() throws IOException {
        writeEnd.close();
        readEnd.close();
    }

    /** {@code length} expected bytes from {@code from} in direct memory lent until its last holder lets go. */
    private LentBytes lent(int from, int length) {
        ByteBuffer memory = ByteBuffer.allocateDirect(length).put(expected, from, length).flip();
        Holders holders = new Holders(givenBack::incrementAndGet);
        LentBytes view = LentBytes.viewOf(holders, memory);
        holders.release();
        return view;
    }

    /** Copies the expected bytes at the payload's position, as a read copying into it does. */
    private static void copy(ByteBuffer payload, byte[] from, int length) {
        payload.put(from, payload.position(), length);
    }

    @Test
    void aPayloadGathersItsLentRangesBetweenItsCopiedBytesInOrder() {
        ByteBuffer payload = out.payload(PAYLOAD);
        copy(payload, expected, 1000);                                   // copied
        assertTrue(out.take(payload, lent(1000, 4000)));                 // lent
        payload.position(5000);
        assertTrue(out.take(payload, lent(5000, 3000)));                 // lent, right after
        payload.position(8000);
        copy(payload, expected, PAYLOAD - 8000);                         // copied to the end
        assertEquals(0, givenBack.get());

        out.sendPayload(request, PAYLOAD);

        assertArrayEquals(expected, reply(PAYLOAD));
        assertEquals(2, givenBack.get(), "both lent ranges let go once written");
    }

    @Test
    void aShortReplySendsOnlyThePayloadsFirstBytes() {
        ByteBuffer payload = out.payload(PAYLOAD);
        assertTrue(out.take(payload, lent(0, 6000)));
        out.sendPayload(request, 4000);
        assertArrayEquals(java.util.Arrays.copyOf(expected, 4000), reply(4000));
        assertEquals(1, givenBack.get());
    }

    @Test
    void anErrorReplyAfterATakeLetsTheLentBytesGo() {
        ByteBuffer payload = out.payload(PAYLOAD);
        assertTrue(out.take(payload, lent(0, 2000)));
        out.error(request, Errno.ENOENT);
        assertEquals(1, givenBack.get());
        reply(0); // the error alone
    }

    @Test
    void rangesDroppedFromAPositionGoBackAndTheRestStays() {
        ByteBuffer payload = out.payload(PAYLOAD);
        assertTrue(out.take(payload, lent(0, 2000)));
        payload.position(2000);
        assertTrue(out.take(payload, lent(2000, 2000)));
        out.dropFrom(2000);
        assertEquals(1, givenBack.get(), "the range at 2000 went back");
        payload.position(2000);
        copy(payload, expected, PAYLOAD - 2000);
        out.sendPayload(request, PAYLOAD);
        assertArrayEquals(expected, reply(PAYLOAD));
        assertEquals(2, givenBack.get());
    }

    @Test
    void heapBytesAndRangesOutOfOrderAreDeclined() {
        ByteBuffer payload = out.payload(PAYLOAD);
        assertFalse(out.take(payload, LentBytes.owned(ByteBuffer.wrap(expected, 0, 100))), "on the heap");
        payload.position(3000);
        assertTrue(out.take(payload, lent(3000, 1000)));
        payload.position(3500);
        LentBytes overlapping = lent(3500, 100);
        assertFalse(out.take(payload, overlapping), "overlaps the range before it");
        overlapping.close();
        out.error(request, Errno.ENOENT);
        assertEquals(2, givenBack.get());
    }

    /** The one reply in the pipe, checked as the kernel would: its length, unique and error; returns its payload. */
    private byte[] reply(int payloadLength) {
        ByteBuffer reply = ByteBuffer.allocateDirect(PAYLOAD + 4096).order(ByteOrder.nativeOrder());
        long n = LibC.get().read(readEnd.fd(), FuseDevice.address(reply), reply.capacity());
        assertEquals(Replies.OUT_HEADER_SIZE + payloadLength, n, "one whole reply");
        assertEquals(n, reply.getInt(0));
        assertEquals(UNIQUE, reply.getLong(8));
        byte[] payload = new byte[payloadLength];
        reply.get(Replies.OUT_HEADER_SIZE, payload);
        return payload;
    }
}
