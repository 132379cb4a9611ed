package io.strata.fuse.kernel;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every request gets an answer whatever its operation throws, written as the kernel would read it
 * (here from a pipe). The failures are thrown by the test's own dispatch: an Error on demand is a
 * fault no real part of the daemon can be made to produce.
 */
class OperationsAnswerTest {
    private static final long UNIQUE = 77;

    private final ByteBuffer in = ByteBuffer.allocateDirect(4096).order(ByteOrder.nativeOrder());
    private final ByteBuffer reply = ByteBuffer.allocateDirect(4096).order(ByteOrder.nativeOrder());
    private final Request request = new Request(in);
    private FuseDevice writeEnd;
    private FuseDevice readEnd;
    private Replies out;

    @BeforeEach
    void lookupAndAPipeForItsReply() {
        int[] fds = new int[2];
        assertEquals(0, LibC.get().pipe2(fds, LibC.O_CLOEXEC | LibC.O_NONBLOCK));
        readEnd = FuseDevice.adopt(fds[0]);
        writeEnd = FuseDevice.adopt(fds[1]);
        out = new Replies(writeEnd, request, null);
        byte[] name = "f".getBytes(StandardCharsets.UTF_8);
        int length = Request.HEADER_SIZE + name.length + 1;
        in.putInt(0, length).putInt(4, Opcode.LOOKUP).putLong(8, UNIQUE).putLong(16, 1)
                .putInt(24, 0).putInt(28, 0).putInt(32, 0).putInt(36, 0);
        in.put(Request.HEADER_SIZE, name).put(Request.HEADER_SIZE + name.length, (byte) 0);
        assertEquals(true, request.decode(length));
    }

    @AfterEach
    void closePipe() throws IOException {
        writeEnd.close();
        readEnd.close();
    }

    @Test
    void anErrorIsAnsweredEio() {
        Operations.answer(request, out, () -> {
            throw new StackOverflowError("deep");
        });
        assertEquals(-FsError.EIO.errno(), answeredErrno());
    }

    @Test
    void anUnexpectedExceptionIsAnsweredEio() {
        Operations.answer(request, out, () -> {
            throw new IOException("disk gone");
        });
        assertEquals(-FsError.EIO.errno(), answeredErrno());
    }

    @Test
    void aFileSystemErrorIsAnsweredWithItsOwnErrno() {
        Operations.answer(request, out, () -> {
            throw new FsException(FsError.ENOENT, "no f");
        });
        assertEquals(-FsError.ENOENT.errno(), answeredErrno());
    }

    @Test
    void anOperationThatAnswersItselfIsLeftAlone() {
        Operations.answer(request, out, () -> out.ok(request));
        assertEquals(0, answeredErrno());
    }

    /** The one reply in the pipe: its unique must be the request's; returns its error field. */
    private int answeredErrno() {
        reply.clear();
        long n = LibC.get().read(readEnd.fd(), FuseDevice.address(reply), reply.capacity());
        assertEquals(Replies.OUT_HEADER_SIZE, n, "one reply header, no payload");
        assertEquals(Replies.OUT_HEADER_SIZE, reply.getInt(0));
        assertEquals(UNIQUE, reply.getLong(8));
        assertEquals(-1, LibC.get().read(readEnd.fd(), FuseDevice.address(reply), reply.capacity()), "a second reply");
        return reply.getInt(4);
    }
}
