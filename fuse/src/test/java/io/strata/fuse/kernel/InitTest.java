package io.strata.fuse.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The INIT reply as the kernel reads it: written by {@link Init} through a {@link FuseDevice} whose
 * descriptor is a pipe's write end, read back from the pipe's other end.
 */
class InitTest {
    private static final int MAX_READ = 1 << 20;
    private static final int KERNEL_DEFAULT_READAHEAD = 128 << 10;
    /** fuse_in_header, then fuse_init_in's major, minor, max_readahead and flags. */
    private static final int INIT_IN_LENGTH = 40 + 16;
    /** The same with flags2 and the unused words after it (7.36). */
    private static final int INIT_EXT_IN_LENGTH = 40 + 64;
    /** fuse_out_header, then fuse_init_out's major and minor. */
    private static final int MAX_READAHEAD_AT = 16 + 8;
    private static final int FLAGS_AT = MAX_READAHEAD_AT + 4;
    /** After flags, max_background, congestion_threshold, max_write, time_gran, max_pages, map_alignment. */
    private static final int FLAGS2_AT = FLAGS_AT + 4 + 2 + 2 + 4 + 4 + 2 + 2;

    private FuseDevice writeEnd;
    private FuseDevice readEnd;
    private final ByteBuffer in = ByteBuffer.allocateDirect(MAX_READ + 4096).order(ByteOrder.nativeOrder());
    private final Request request = new Request(in);

    @BeforeEach
    void openPipe() {
        int[] fds = new int[2];
        assertEquals(0, LibC.get().pipe2(fds, LibC.O_CLOEXEC), "pipe2");
        readEnd = FuseDevice.adopt(fds[0]);
        writeEnd = FuseDevice.adopt(fds[1]);
    }

    @AfterEach
    void closePipe() {
        readEnd.close();
        writeEnd.close();
    }

    @Test
    void theReplyAsksForAReadaheadWindowOfMaxReadWhereTheKernelOffersLess() throws IOException {
        ByteBuffer reply = initReply(KERNEL_DEFAULT_READAHEAD);

        // the kernel takes the smaller of this and its bdi's window, which BdiReadahead may have
        // raised to max_read before this reply arrives
        assertEquals(MAX_READ, reply.getInt(MAX_READAHEAD_AT));
    }

    @Test
    void theReplyKeepsALargerReadaheadWindowTheKernelOffers() throws IOException {
        ByteBuffer reply = initReply(4 * MAX_READ);

        assertEquals(4 * MAX_READ, reply.getInt(MAX_READAHEAD_AT));
    }

    @Test
    void sharedMappingsOfDirectIoFilesAreAskedForWhereTheKernelOffersThem() throws IOException {
        ByteBuffer reply = initReply(KERNEL_DEFAULT_READAHEAD, Init.INIT_EXT, Init.DIRECT_IO_ALLOW_MMAP | 1);

        assertEquals(Init.INIT_EXT, reply.getInt(FLAGS_AT) & Init.INIT_EXT, "flags2 is meant");
        assertEquals(Init.DIRECT_IO_ALLOW_MMAP, reply.getInt(FLAGS2_AT), "only what was asked for");
    }

    @Test
    void aKernelWithoutTheExtendedInitGetsNoUpperFlags() throws IOException {
        ByteBuffer reply = initReply(KERNEL_DEFAULT_READAHEAD);

        assertEquals(0, reply.getInt(FLAGS_AT) & Init.INIT_EXT);
        assertEquals(0, reply.getInt(FLAGS2_AT));
    }

    private ByteBuffer initReply(int maxReadahead) throws IOException {
        return initReply(maxReadahead, 0, 0);
    }

    /** Serves an INIT offering {@code maxReadahead} and these flags, and returns the reply as written. */
    private ByteBuffer initReply(int maxReadahead, int kernelFlags, int kernelFlags2) throws IOException {
        Replies out = new Replies(writeEnd, request, null); // made once per worker, before its first request
        int asked = (kernelFlags & Init.INIT_EXT) != 0 ? INIT_EXT_IN_LENGTH : INIT_IN_LENGTH;
        in.putInt(0, asked).putInt(4, Opcode.INIT).putLong(8, 1).putLong(16, 0)
                .putInt(40, Init.MAJOR).putInt(44, Init.MINOR).putInt(48, maxReadahead).putInt(52, kernelFlags)
                .putInt(56, kernelFlags2);
        request.decode(asked);
        new Init(settings()).reply(request, out);

        ByteBuffer reply = ByteBuffer.allocateDirect(4096).order(ByteOrder.nativeOrder());
        int length = readEnd.read(reply);
        assertEquals(length, reply.getInt(0), "the reply's length in its header");
        assertEquals(0, reply.getInt(4), "error");
        return reply;
    }

    private static KernelSettings settings() {
        return new KernelSettings("test", Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO, false, false,
                false, false, false, false, MAX_READ, MAX_READ, null, null, null, 1, false, false, false, 0);
    }
}
