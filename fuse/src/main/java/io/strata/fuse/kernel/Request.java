package io.strata.fuse.kernel;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One request as the kernel wrote it into a worker's buffer: the fixed {@code fuse_in_header}
 * decoded, and a cursor over the operation's arguments behind it. Valid until the worker reads its
 * next request into the same buffer, or until the reply's payload is written over it
 * ({@link #overwrite}); views it hands out ({@link #bytes}) share that lifetime.
 */
final class Request {
    static final int HEADER_SIZE = 40;

    private final ByteBuffer buffer;
    private final ByteBuffer payload;
    /** Set once the reply's payload may have been written over the arguments. */
    private boolean overwritten;
    private int length;
    private int opcode;
    private long unique;
    private long nodeId;
    private int uid;
    private int gid;
    private int pid;
    private int end;
    private int cursor;

    Request(ByteBuffer buffer) {
        this.buffer = buffer;
        this.payload = buffer.duplicate().order(buffer.order());
    }

    /** Decodes the header of the {@code length} bytes just read; false if they are not a request. */
    boolean decode(int readLength) {
        if (readLength < HEADER_SIZE) {
            return false;
        }
        length = buffer.getInt(0);
        opcode = buffer.getInt(4);
        unique = buffer.getLong(8);
        nodeId = buffer.getLong(16);
        uid = buffer.getInt(24);
        gid = buffer.getInt(28);
        pid = buffer.getInt(32);
        int extensionBytes = Short.toUnsignedInt(buffer.getShort(36)) * 8;
        end = Math.min(length, readLength) - extensionBytes;
        cursor = HEADER_SIZE;
        overwritten = false;
        return length == readLength && end >= HEADER_SIZE;
    }

    int opcode() {
        return opcode;
    }

    long unique() {
        return unique;
    }

    long nodeId() {
        return nodeId;
    }

    int uid() {
        return uid;
    }

    int gid() {
        return gid;
    }

    int pid() {
        return pid;
    }

    int u32() {
        checkArguments();
        int value = buffer.getInt(cursor);
        cursor += 4;
        return value;
    }

    long u64() {
        checkArguments();
        long value = buffer.getLong(cursor);
        cursor += 8;
        return value;
    }

    /** The u32 at {@code offset} into the arguments, the cursor left where it is. */
    int peekU32(int offset) {
        checkArguments();
        return buffer.getInt(HEADER_SIZE + offset);
    }

    /** The u64 at {@code offset} into the arguments, the cursor left where it is. */
    long peekU64(int offset) {
        checkArguments();
        return buffer.getLong(HEADER_SIZE + offset);
    }

    /** The NUL-terminated name at {@code offset} into the arguments, the cursor left where it is. */
    String peekName(int offset) {
        int saved = cursor;
        cursor = Math.min(HEADER_SIZE + offset, end);
        String name = name();
        cursor = saved;
        return name;
    }

    void skip(int bytes) {
        cursor += bytes;
    }

    /** A NUL-terminated name (UTF-8), the cursor moved past its NUL. */
    String name() {
        checkArguments();
        int start = cursor;
        int nul = start;
        while (nul < end && buffer.get(nul) != 0) {
            nul++;
        }
        byte[] bytes = new byte[nul - start];
        buffer.get(start, bytes);
        cursor = Math.min(nul + 1, end);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The next {@code count} bytes as a view, the cursor moved past them. */
    ByteBuffer bytes(int count) {
        checkArguments();
        int n = Math.min(count, end - cursor);
        ByteBuffer view = buffer.slice(cursor, n);
        cursor += n;
        return view;
    }

    /** The bytes left after the cursor. */
    int remaining() {
        return end - cursor;
    }

    /**
     * The buffer's memory, for the reply's payload: a worker answers from the buffer its request
     * came in, so it owns one buffer of the largest request or reply, not one of each. The
     * arguments are gone from here on; an operation reads all of them first, and reading one later
     * fails here rather than answering from the payload's bytes.
     */
    ByteBuffer overwrite() {
        overwritten = true;
        return payload;
    }

    private void checkArguments() {
        if (overwritten) {
            throw new IllegalStateException("the arguments of request " + unique + " were read after its reply's payload overwrote them");
        }
    }
}
