package io.strata.fuse.kernel;

import io.strata.core.cache.PageRegions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A worker's replies and the writes that send them: a small buffer for the
 * {@code fuse_out_header} and the reply's fixed structs, and payloads (file data, directory
 * entries, xattrs) written over the request's own buffer ({@link Request#overwrite}), gathered
 * into one writev(2) as the protocol wants a reply whole. Owned by one worker thread; never shared.
 */
final class Replies {
    private static final Logger log = LoggerFactory.getLogger(Replies.class);
    static final int OUT_HEADER_SIZE = 16;

    private final FuseDevice device;
    private final ByteBuffer head = ByteBuffer.allocateDirect(4096).order(ByteOrder.nativeOrder());
    /** The worker's one request, whose buffer carries the payloads. */
    private final Request request;
    private final long payloadAddress;
    private final int payloadCapacity;
    private final ByteBuffer iovec = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
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
        write(request.unique(), 0, head.position(), 0, 0);
    }

    /** Sends the fixed part put after {@link #begin()} followed by the payload's first {@code length} bytes. */
    void sendWithPayload(Request request, int length) {
        write(request.unique(), 0, head.position(), payloadAddress, length);
    }

    /** Sends the payload's first {@code length} bytes as the whole reply body. */
    void sendPayload(Request request, int length) {
        head.clear();
        write(request.unique(), 0, OUT_HEADER_SIZE, payloadAddress, length);
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
        write(request.unique(), -errno, OUT_HEADER_SIZE, 0, 0);
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

    private void write(long unique, int error, int headLength, long payloadAddress, int payloadLength) {
        lastErrno = -error;
        lastPayload = payloadLength;
        lastSpliced = false;
        putHeader(unique, error, headLength + payloadLength);
        iovec.putLong(0, headAddress);
        iovec.putLong(8, headLength);
        int count = 1;
        if (payloadLength > 0) {
            iovec.putLong(16, payloadAddress);
            iovec.putLong(24, payloadLength);
            count = 2;
        }
        int errno = device.writev(iovecAddress, count);
        // ENOENT: the request was interrupted and nobody waits for the reply any more.
        if (errno != 0 && errno != Errno.ENOENT) {
            log.warn("the kernel refused a reply of {} bytes (error {}) with errno {}", headLength + payloadLength,
                    error, errno);
        }
    }

    /** The fuse_out_header at the head buffer's start: the reply's whole length, its error, its request. */
    private void putHeader(long unique, int error, int length) {
        head.putInt(0, length);
        head.putInt(4, error);
        head.putLong(8, unique);
    }
}
