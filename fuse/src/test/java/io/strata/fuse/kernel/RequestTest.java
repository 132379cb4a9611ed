package io.strata.fuse.kernel;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Decoding requests as the kernel lays them out: fuse_in_header, then the operation's arguments. */
class RequestTest {
    private final ByteBuffer buffer = ByteBuffer.allocate(4096).order(ByteOrder.nativeOrder());
    private final Request request = new Request(buffer);

    @Test
    void headerFieldsAndArgumentsAreRead() {
        int length = header(Opcode.RENAME2, 40 + 16 + 4 + 8, 0);
        buffer.putLong(40, 99).putInt(48, 1);
        putName(56, "old");
        putName(60, "new.txt");

        assertTrue(request.decode(length));
        assertEquals(Opcode.RENAME2, request.opcode());
        assertEquals(7, request.unique());
        assertEquals(5, request.nodeId());
        assertEquals(1000, request.uid());
        assertEquals(100, request.gid());
        assertEquals(1234, request.pid());
        assertEquals(99, request.u64());
        assertEquals(1, request.u32());
        request.skip(4);
        assertEquals("old", request.name());
        assertEquals("new.txt", request.name());
    }

    @Test
    void extensionHeadersAreNotPartOfTheArguments() {
        int length = header(Opcode.MKDIR, 40 + 8 + 2 + 16, 2); // then two 8-byte units of extensions
        putName(48, "d");

        assertTrue(request.decode(length));
        request.skip(8);
        assertEquals("d", request.name());
        assertEquals(0, request.remaining());
    }

    @Test
    void aShortReadIsNotARequest() {
        header(Opcode.LOOKUP, 50, 0);
        assertFalse(request.decode(39));
        assertFalse(request.decode(45), "the header says 50 bytes");
    }

    @Test
    void aNameIsDecodedAsUtf8() {
        int length = header(Opcode.LOOKUP, 40 + 10, 0);
        putName(40, "é€x");

        assertTrue(request.decode(length));
        assertEquals("é€x", request.name());
    }

    @Test
    void argumentsCannotBeReadOnceTheReplyPayloadOverwritesThem() {
        int length = header(Opcode.READ, 40 + 40, 0);
        buffer.putLong(40, 3).putLong(48, 4096).putInt(56, 8192);

        assertTrue(request.decode(length));
        assertEquals(3, request.u64());
        ByteBuffer payload = request.overwrite();
        payload.clear().putLong(0, -1);

        assertThrows(IllegalStateException.class, request::u64);
        assertThrows(IllegalStateException.class, () -> request.peekU32(16));
    }

    @Test
    void theNextRequestIsReadableAfterAReplyPayload() {
        header(Opcode.READ, 80, 0);
        assertTrue(request.decode(80));
        request.overwrite();

        int length = header(Opcode.LOOKUP, 40 + 2, 0);
        putName(40, "a");
        assertTrue(request.decode(length));
        assertEquals("a", request.name());
    }

    private int header(int opcode, int length, int extensionUnits) {
        buffer.putInt(0, length).putInt(4, opcode).putLong(8, 7).putLong(16, 5).putInt(24, 1000).putInt(28, 100)
                .putInt(32, 1234).putShort(36, (short) extensionUnits);
        return length;
    }

    private void putName(int offset, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        buffer.put(offset, bytes).put(offset + bytes.length, (byte) 0);
    }
}
