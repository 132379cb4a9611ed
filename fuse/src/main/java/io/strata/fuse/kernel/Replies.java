package io.strata.fuse.kernel;

import io.strata.core.buffer.LentBytes;
import io.strata.core.buffer.LentBytesSink;
import io.strata.core.cache.PageRegions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker's replies and the writes that send them: a small buffer for the
 * {@code fuse_out_header} and the reply's fixed structs, and payloads (file data, directory
 * entries, xattrs) written over the request's own buffer ({@link Request#overwrite}), gathered
 * into one writev(2) as the protocol wants a reply whole. Owned by one worker thread; never shared.
 *
 * <p>A READ's payload may also take bytes lent in memory where they are ({@link LentBytesSink}: a
 * readahead part in the S3 client's pool) rather than a copy of them in the request's buffer; the
 * reply's writev then gathers them from there, between the copied bytes around them, and lets
 * them go once it returns. The copy this saves was a fifth of the workers' CPU in a cold stream
 * (docs/PERFORMANCE.md, forty-seventh round).
 */
final class Replies implements LentBytesSink {
    private static final Logger log = LoggerFactory.getLogger(Replies.class);
    static final int OUT_HEADER_SIZE = 16;

    private final FuseDevice device;
    private final ByteBuffer head = ByteBuffer.allocateDirect(4096).order(ByteOrder.nativeOrder());
    /** The worker's one request, whose buffer carries the payloads. */
    private final Request request;
    private final long payloadAddress;
    private final int payloadCapacity;
    /** Lent bytes a payload holds at most: beyond them, bytes are copied (each needs two iovecs at most). */
    private static final int MAX_KEPT = 32;
    private static final int IOVEC_SIZE = 16;
    private final ByteBuffer iovec = ByteBuffer.allocateDirect((2 * MAX_KEPT + 2) * IOVEC_SIZE)
            .order(ByteOrder.nativeOrder());
    /** The lent bytes the payload being built holds, in the order of their positions in it. */
    private final List<Kept> kept = new ArrayList<>(2);
    private final long headAddress = FuseDevice.address(head);
    private final long iovecAddress = FuseDevice.address(iovec);
    /** The errno (positive; 0 for success) and payload length of the last reply, for the meters. */
    private int lastErrno;
    private int lastPayload;
    private boolean lastSpliced;

    /** The worker's pipe for spliced reads, or null to copy every reply. */
    private final SplicePipe pipe;

    /**
     * Replies to the requests decoded by {@code request}, whose buffer carries their payloads;
     * reads are spliced through {@code pipe} where they can be (null: never).
     */
    Replies(FuseDevice device, Request request, SplicePipe pipe) {
        this.device = device;
        this.request = request;
        this.pipe = pipe;
        ByteBuffer memory = request.overwrite(); // the same memory for every request; decode() resets the mark
        this.payloadAddress = FuseDevice.address(memory);
        this.payloadCapacity = memory.capacity();
    }

    /** The struct buffer, cleared and positioned after the header: put the reply's fixed part. */
    ByteBuffer begin() {
        head.clear();
        head.position(OUT_HEADER_SIZE);
        return head;
    }

    /**
     * The payload buffer, cleared, limited to {@code size} bytes (at most its capacity). It is the
     * request's buffer: read every argument before asking for it.
     */
    ByteBuffer payload(int size) {
        ByteBuffer data = request.overwrite();
        data.clear();
        data.limit(Math.min(size, data.capacity()));
        return data;
    }

    int payloadCapacity() {
        return payloadCapacity;
    }

    /** Sends what was put after {@link #begin()}. */
    void send(Request request) {
        write(request.unique(), 0, head.position(), 0);
    }

    /** Sends the fixed part put after {@link #begin()} followed by the payload's first {@code length} bytes. */
    void sendWithPayload(Request request, int length) {
        write(request.unique(), 0, head.position(), length);
    }

    /**
     * Sends the payload's first {@code length} bytes as the whole reply body: those the payload
     * took lent ({@link #take}) from where they are, the rest from the payload buffer.
     */
    void sendPayload(Request request, int length) {
        head.clear();
        write(request.unique(), 0, OUT_HEADER_SIZE, length);
    }

    /** A lent range of a payload: {@code bytes} stand for the payload's bytes from {@code position} on. */
    private record Kept(int position, LentBytes bytes) {
        int end() {
            return position + bytes.remaining();
        }
    }

    /**
     * Takes lent bytes outside the heap as the payload's next bytes, at {@code dst}'s position in
     * the payload buffer, up to {@link #MAX_KEPT} of them; declines anything else (heap bytes, which
     * a system call cannot be pointed at, or bytes out of order).
     */
    @Override
    public boolean take(ByteBuffer dst, LentBytes bytes) {
        int position = dst.position();
        if (!bytes.direct() || kept.size() >= MAX_KEPT
                || (!kept.isEmpty() && kept.get(kept.size() - 1).end() > position)) {
            return false;
        }
        kept.add(new Kept(position, bytes));
        return true;
    }

    @Override
    public void dropFrom(int position) {
        for (int i = kept.size() - 1; i >= 0 && kept.get(i).position() >= position; i--) {
            kept.remove(i).bytes().close();
        }
    }

    /** Lets go of every lent range the payload held. */
    private void releaseKept() {
        for (Kept range : kept) {
            range.bytes().close();
        }
        kept.clear();
    }

    /** Whether a read of {@code size} bytes may be answered with {@link #sendRegions}. */
    boolean splices(int size) {
        return pipe != null && pipe.worth(size);
    }

    /**
     * Sends {@code regions}' bytes as the whole reply body, spliced from their page files. False if
     * nothing was sent: the caller copies the reply instead.
     */
    boolean sendRegions(Request request, PageRegions regions) {
        releaseKept();
        head.clear();
        putHeader(request.unique(), 0, OUT_HEADER_SIZE + regions.length());
        if (!pipe.send(device, headAddress, OUT_HEADER_SIZE, regions)) {
            return false;
        }
        lastErrno = 0;
        lastPayload = regions.length();
        lastSpliced = true;
        return true;
    }

    void ok(Request request) {
        begin();
        send(request);
    }

    void error(Request request, int errno) {
        head.clear();
        write(request.unique(), -errno, OUT_HEADER_SIZE, 0);
    }

    int lastErrno() {
        return lastErrno;
    }

    int lastPayload() {
        return lastPayload;
    }

    /** Whether the last reply's payload was spliced from page files. */
    boolean lastSpliced() {
        return lastSpliced;
    }

    /**
     * Sends the header and fixed part ({@code headLength} bytes) and the payload's first {@code
     * payloadLength} bytes, the ranges it took lent from where they are and the rest from the
     * payload buffer; then lets go of every range taken (a reply that carries none of them, an
     * error after some were taken, leaves them too).
     */
    private void write(long unique, int error, int headLength, int payloadLength) {
        lastErrno = -error;
        lastPayload = payloadLength;
        lastSpliced = false;
        try {
            putHeader(unique, error, headLength + payloadLength);
            int count = putIovec(0, headAddress, headLength);
            int at = 0;
            for (Kept range : kept) {
                if (range.position() >= payloadLength) {
                    break;
                }
                if (range.position() > at) {
                    count = putIovec(count, payloadAddress + at, range.position() - at);
                }
                ByteBuffer bytes = range.bytes().bytes();
                int n = Math.min(bytes.remaining(), payloadLength - range.position());
                count = putIovec(count, FuseDevice.address(bytes) + bytes.position(), n);
                at = range.position() + n;
            }
            if (at < payloadLength) {
                count = putIovec(count, payloadAddress + at, payloadLength - at);
            }
            writev(count, headLength + payloadLength, error);
        } finally {
            releaseKept();
        }
    }

    private int putIovec(int index, long address, long length) {
        iovec.putLong(index * IOVEC_SIZE, address);
        iovec.putLong(index * IOVEC_SIZE + 8, length);
        return index + 1;
    }

    private void writev(int count, int length, int error) {
        int errno = device.writev(iovecAddress, count);
        // ENOENT: the request was interrupted and nobody waits for the reply any more.
        if (errno != 0 && errno != Errno.ENOENT) {
            log.warn("the kernel refused a reply of {} bytes (error {}) with errno {}", length, error, errno);
        }
    }

    /** The fuse_out_header at the head buffer's start: the reply's whole length, its error, its request. */
    private void putHeader(long unique, int error, int length) {
        head.putInt(0, length);
        head.putInt(4, error);
        head.putLong(8, unique);
    }
}
