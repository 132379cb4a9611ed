package io.strata.core.readahead;

import io.strata.core.buffer.LentBytes;
import io.strata.core.concurrent.Holders;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The bytes of one ranged read, {@code [start, start + length())} of an object, held in blocks
 * aligned to the file's block grid (block {@code k} covers {@code [k * blockSize, (k + 1) *
 * blockSize)}, cut to the range). The grid is why it exists: a block-aligned, block-sized read, as
 * the page cache makes for each page it fills, lies in exactly one buffer and can be handed out
 * as a view ({@link #view}) instead of being copied into a page of its own; and a part received in
 * chunks is never one large array (an 8 MiB part is eight 1 MiB blocks, not a humongous
 * allocation). A body the S3 client hands over whole is kept as it is ({@link #adopt}): its blocks
 * are views of that memory, an array the client made anyway or a buffer it lends from its own pool.
 * Lent memory goes back when the range is {@link #release}d and every view handed out of it
 * ({@link #view}) is closed.
 *
 * <p>Filled by one receiver ({@link #put}, in order, from one thread at a time), then published
 * by completing the fetch's future, after which it is only read: reads need no lock.
 */
public final class FetchedRange {
    private final long start;
    private final int capacity;
    private final int blockSize;
    private final ByteBuffer[] blocks;
    private int length;
    /** The lent memory the blocks are views of, or null: they are the range's own. */
    private Holders lent;
    private final AtomicBoolean released = new AtomicBoolean();

    private FetchedRange(long start, int capacity, int blockSize) {
        if (start < 0 || capacity < 0 || blockSize <= 0) {
            throw new IllegalArgumentException("bad range " + start + "+" + capacity + " in blocks of " + blockSize);
        }
        this.start = start;
        this.capacity = capacity;
        this.blockSize = blockSize;
        this.blocks = new ByteBuffer[capacity == 0 ? 0 : slot(start + capacity - 1) + 1];
    }

    /** An empty range at {@code start} with room for {@code capacity} bytes; blocks are allocated as bytes arrive. */
    public static FetchedRange allocate(long start, int capacity, int blockSize) {
        return new FetchedRange(start, capacity, blockSize);
    }

    /** A filled range holding a copy of {@code bytes} (its remaining bytes), for fetchers that already have them. */
    public static FetchedRange copyOf(long start, ByteBuffer bytes, int blockSize) {
        FetchedRange range = allocate(start, bytes.remaining(), blockSize);
        range.put(bytes.duplicate());
        return range;
    }

    /**
     * Appends the chunk's remaining bytes (consuming them); false, appending nothing, if they do
     * not fit the capacity.
     */
    public boolean put(ByteBuffer chunk) {
        if (chunk.remaining() > capacity - length) {
            return false;
        }
        while (chunk.hasRemaining()) {
            long position = start + length;
            int index = slot(position);
            ByteBuffer block = blocks[index];
            if (block == null) {
                long blockEnd = Math.min(start + capacity, (blockIndex(position) + 1) * blockSize);
                block = ByteBuffer.allocate((int) (blockEnd - position));
                blocks[index] = block;
            }
            int n = Math.min(block.remaining(), chunk.remaining());
            block.put(chunk.duplicate().limit(chunk.position() + n));
            chunk.position(chunk.position() + n);
            length += n;
        }
        return true;
    }

    /**
     * Takes all of the range's bytes at once as its own: {@code whole}'s remaining bytes become the
     * blocks, as views of its memory on the block grid, not copies. False, taking nothing, unless
     * the range is still empty and {@code whole} holds exactly its capacity. The caller hands the
     * memory over: nothing may write to it afterwards.
     */
    public boolean adopt(ByteBuffer whole) {
        if (length != 0 || whole.remaining() != capacity) {
            return false;
        }
        adoptBlocks(whole);
        return true;
    }

    /**
     * As {@link #adopt(ByteBuffer)}, for memory lent until {@code giveBack} runs: the range holds it
     * until {@link #release}, each view until it is closed, and the last to let go gives it back.
     * On false it stays the caller's to give back.
     */
    public boolean adopt(ByteBuffer whole, Runnable giveBack) {
        if (length != 0 || whole.remaining() != capacity) {
            return false;
        }
        lent = new Holders(giveBack);
        adoptBlocks(whole);
        return true;
    }

    private void adoptBlocks(ByteBuffer whole) {
        int base = whole.position();
        for (long position = start; position < start + capacity; ) {
            long blockEnd = Math.min(start + capacity, (blockIndex(position) + 1) * blockSize);
            int n = (int) (blockEnd - position);
            blocks[slot(position)] = whole.slice(base + (int) (position - start), n).position(n);
            position = blockEnd;
        }
        length = capacity;
        whole.position(whole.limit());
    }

    /**
     * Lets go of the range's bytes: lent memory goes back to its owner once the views handed out
     * are closed too. The range must not be read afterwards. Once; later calls do nothing.
     */
    public void release() {
        if (released.compareAndSet(false, true) && lent != null) {
            lent.release();
        }
    }

    /** Whether the bytes are memory lent by the S3 client rather than the range's own. */
    public boolean lent() {
        return lent != null;
    }

    /** Bytes received. */
    public int length() {
        return length;
    }

    public int capacity() {
        return capacity;
    }

    /** Whether all the bytes asked for arrived. */
    public boolean full() {
        return length == capacity;
    }

    /**
     * Copies the bytes from file offset {@code position} up to {@code limit} (or the end of what
     * was received, or the room in {@code dst}) into {@code dst}; returns the count, 0 if there are
     * none at {@code position}.
     */
    public int copyTo(long position, long limit, ByteBuffer dst) {
        if (position < start) {
            throw new IllegalArgumentException("offset " + position + " is before the range " + this);
        }
        long end = Math.min(Math.min(limit, start + length), position + dst.remaining());
        int copied = 0;
        for (long at = position; at < end; ) {
            ByteBuffer block = blocks[slot(at)];
            long blockStart = blockStart(at);
            int from = (int) (at - blockStart);
            int n = (int) Math.min(end - at, block.position() - from);
            dst.put(block.duplicate().limit(from + n).position(from));
            copied += n;
            at += n;
        }
        return copied;
    }

    /**
     * The {@code count} bytes at file offset {@code position} as a read-only view sharing this
     * range's memory, held until closed; null when they are not all in one block (the caller copies
     * instead). Only while the range is not yet released.
     */
    public LentBytes view(long position, int count) {
        if (position < start || count <= 0 || position + count > start + length
                || blockIndex(position) != blockIndex(position + count - 1)) {
            return null;
        }
        int from = (int) (position - blockStart(position));
        ByteBuffer view = blocks[slot(position)].duplicate().limit(from + count).position(from).slice();
        if (lent == null) {
            return LentBytes.owned(view);
        }
        LentBytes shared = LentBytes.viewOf(lent, view);
        if (shared == null) {
            throw new IllegalStateException(this + " was viewed after its memory was given back");
        }
        return shared;
    }

    private long blockIndex(long position) {
        return position / blockSize;
    }

    /** The index in {@code blocks} of the block holding {@code position}. */
    private int slot(long position) {
        return (int) (blockIndex(position) - blockIndex(start));
    }

    /** Where the block holding {@code position} starts in the file, cut to this range. */
    private long blockStart(long position) {
        return Math.max(start, position - position % blockSize);
    }

    @Override
    public String toString() {
        return "FetchedRange[" + start + "+" + length + "/" + capacity + "]";
    }
}
