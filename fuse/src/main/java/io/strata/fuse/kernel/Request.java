package io.strata.fuse.kernel;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One request as the kernel wrote it into a worker's buffer: the fixed {@code fuse_in_header}
 * decoded, and a cursor over the operation's arguments behind it. Valid until the worker reads its
 * next request into the same buffer; views it hands out ({@link #bytes}) share that lifetime.
 */
final class Request {
    static final int HEADER_SIZE = 40;

    private final ByteBuffer buffer;
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
        int value = buffer.getInt(cursor);
        cursor += 4;
        return value;
    }

    long u64() {
        long value = buffer.getLong(cursor);
        cursor += 8;
        return value;
    }

    /** The u32 at {@code offset} into the arguments, the cursor left where it is. */
    int peekU32(int offset) {
        return buffer.getInt(HEADER_SIZE + offset);
    }

    /** The u64 at {@code offset} into the arguments, the cursor left where it is. */
    long peekU64(int offset) {
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
        int n = Math.min(count, end - cursor);
        ByteBuffer view = buffer.slice(cursor, n);
        cursor += n;
        return view;
    }

    /** The bytes left after the cursor. */
    int remaining() {
        return end - cursor;
    }
}
