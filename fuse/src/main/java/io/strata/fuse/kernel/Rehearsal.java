package io.strata.fuse.kernel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A session's rehearsal: before its workers read the kernel's INIT, it answers requests of its own
 * making, as the kernel would send them, on the volume's reserved directory, through the same
 * decoding, operations and replies as the kernel's, its replies written into a pipe it drains.
 *
 * <p>Why: a fresh JVM runs its first requests interpreted. 200 stats on a fresh mount took 50-61
 * ms, and 15-38 ms after a rehearsal of 150 rounds, which made the mount ~0.2 s longer (on two
 * cores; docs/PERFORMANCE.md, thirty-third round). Until INIT is answered the kernel holds every
 * request to the mount, so the rehearsal is the mount's time, not the user's, and no request of
 * theirs waits behind one of its own.
 *
 * <p>What it asks only reads, and only the reserved directory and the root's attributes, so it
 * changes nothing and warms no cache entry of the user's files: the root's attributes once, then
 * per round a lookup that misses in the reserved directory (a name no one makes, so each reaches
 * the metastore's engine) and the directory's attributes, and every {@link #LISTING_EVERY} rounds
 * an OPENDIR, READDIRPLUS and RELEASEDIR of it. Its replies are read back only for the directory
 * handle. The entries its listing returned are counted as the kernel's lookups; the caller forgets
 * them all before INIT, when the kernel holds none.
 */
final class Rehearsal {
    /** One request at a time: how the caller answers it, writing the reply to the device given. */
    interface Handler {
        void handle(Request request, Replies out);
    }

    static final int LISTING_EVERY = 8;
    /** A name looked up in the reserved directory, where no one makes it; the round's number follows. */
    static final String MISSING = "rehearsal-";
    private static final int READDIR_SIZE = 4096;
    private static final int BUFFER_SIZE = 64 * 1024;
    private static final long ROOT = 1;

    private final long directory;
    private final int rounds;
    private long unique = 1L << 62; // far from the kernel's: only this pipe ever sees them

    /** @param directory the reserved directory's inode number */
    Rehearsal(long directory, int rounds) {
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must not be negative: " + rounds);
        }
        this.directory = directory;
        this.rounds = rounds;
    }

    /** Runs every round through {@code handler}; the number of requests answered. */
    int run(Handler handler) throws IOException {
        int[] fds = new int[2];
        // Non-blocking: a request left unanswered is an error here, not a mount that never ends
        if (LibC.get().pipe2(fds, LibC.O_CLOEXEC | LibC.O_NONBLOCK) != 0) {
            throw new IOException("cannot make a pipe for the rehearsal (errno " + LibC.errno() + ")");
        }
        ByteBuffer in = ByteBuffer.allocateDirect(BUFFER_SIZE).order(ByteOrder.nativeOrder());
        ByteBuffer reply = ByteBuffer.allocateDirect(BUFFER_SIZE).order(ByteOrder.nativeOrder());
        int answered = 0;
        try (FuseDevice replies = FuseDevice.adopt(fds[1]); FuseDevice readBack = FuseDevice.adopt(fds[0])) {
            // Read back with read(2) itself: FuseDevice#read waits out EAGAIN, as a worker must
            Request request = new Request(in);
            Replies out = new Replies(replies, request, null);
            if (rounds > 0) {
                ask(handler, request, out, readBack, reply, getattr(in, ROOT)); // the kernel's first request
                answered++;
            }
            for (int round = 0; round < rounds; round++) {
                ask(handler, request, out, readBack, reply, lookup(in, directory, MISSING + round));
                ask(handler, request, out, readBack, reply, getattr(in, directory));
                answered += 2;
                if (round % LISTING_EVERY == 0) {
                    ask(handler, request, out, readBack, reply, opendir(in, directory));
                    long fh = reply.getInt(4) == 0 ? reply.getLong(Replies.OUT_HEADER_SIZE) : -1;
                    if (fh >= 0) {
                        ask(handler, request, out, readBack, reply, readdirplus(in, directory, fh));
                        ask(handler, request, out, readBack, reply, releasedir(in, directory, fh));
                        answered += 2;
                    }
                    answered++;
                }
            }
        }
        return answered;
    }

    /** Hands the request just written to {@code in} to the handler, then reads its reply back. */
    private static void ask(Handler handler, Request request, Replies out, FuseDevice readBack, ByteBuffer reply,
                            int length) throws IOException {
        if (!request.decode(length)) {
            throw new IllegalStateException("the rehearsal wrote a malformed request");
        }
        handler.handle(request, out);
        reply.clear();
        long n = LibC.get().read(readBack.fd(), FuseDevice.address(reply), reply.capacity());
        if (n < Replies.OUT_HEADER_SIZE) {
            throw new IOException("the rehearsal's " + Opcode.name(request.opcode()) + " got no reply");
        }
    }

    private int header(ByteBuffer in, int opcode, long nodeId, int argumentBytes) {
        int length = Request.HEADER_SIZE + argumentBytes;
        in.clear();
        in.putInt(0, length).putInt(4, opcode).putLong(8, unique++).putLong(16, nodeId)
                .putInt(24, 0).putInt(28, 0).putInt(32, 0).putInt(36, 0);
        return length;
    }

    private int getattr(ByteBuffer in, long nodeId) {
        int length = header(in, Opcode.GETATTR, nodeId, 16);
        in.putLong(Request.HEADER_SIZE, 0).putLong(Request.HEADER_SIZE + 8, 0); // flags, dummy; fh
        return length;
    }

    private int lookup(ByteBuffer in, long parent, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        int length = header(in, Opcode.LOOKUP, parent, bytes.length + 1);
        in.put(Request.HEADER_SIZE, bytes).put(Request.HEADER_SIZE + bytes.length, (byte) 0);
        return length;
    }

    private int opendir(ByteBuffer in, long nodeId) {
        int length = header(in, Opcode.OPENDIR, nodeId, 8);
        in.putLong(Request.HEADER_SIZE, 0); // O_RDONLY; open_flags
        return length;
    }

    /** fuse_read_in: fh, offset, size, read_flags, lock_owner, flags, padding. */
    private int readdirplus(ByteBuffer in, long nodeId, long fh) {
        int length = header(in, Opcode.READDIRPLUS, nodeId, 40);
        int at = Request.HEADER_SIZE;
        in.putLong(at, fh).putLong(at + 8, 0).putInt(at + 16, READDIR_SIZE).putInt(at + 20, 0)
                .putLong(at + 24, 0).putInt(at + 32, 0).putInt(at + 36, 0);
        return length;
    }

    /** fuse_release_in: fh, flags, release_flags, lock_owner. */
    private int releasedir(ByteBuffer in, long nodeId, long fh) {
        int length = header(in, Opcode.RELEASEDIR, nodeId, 24);
        in.putLong(Request.HEADER_SIZE, fh).putLong(Request.HEADER_SIZE + 8, 0).putLong(Request.HEADER_SIZE + 16, 0);
        return length;
    }
}
