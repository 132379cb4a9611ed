package io.strata.core.buffer;

import io.strata.core.concurrent.Holders;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/**
 * Read-only bytes held by one holder until it closes them: a view of lent memory (one of its
 * {@link Holders}), or bytes on the heap with nothing to give back. After {@link #close} the bytes
 * must not be read: shared memory may be another request's by then. Pass them on with {@link
 * #share}, which makes a holder of its own.
 */
public final class LentBytes implements AutoCloseable {
    private static final LentBytes EMPTY = new LentBytes(ByteBuffer.allocate(0).asReadOnlyBuffer(), null);

    private final ByteBuffer bytes;
    private final Holders memory;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LentBytes(ByteBuffer bytes, Holders memory) {
        this.bytes = bytes;
        this.memory = memory;
    }

    /** Bytes the caller owns outright (the heap, or memory nobody gives back): closing them does nothing. */
    public static LentBytes owned(ByteBuffer bytes) {
        return new LentBytes(requireNonNull(bytes, "bytes is null").asReadOnlyBuffer(), null);
    }

    /** No bytes: the end of a file. */
    public static LentBytes empty() {
        return EMPTY;
    }

    /**
     * {@code view} (a view of {@code memory}) as a new holder of {@code memory}; null when the
     * memory has been given back already.
     */
    public static LentBytes viewOf(Holders memory, ByteBuffer view) {
        requireNonNull(view, "view is null");
        return memory.retain() ? new LentBytes(view.asReadOnlyBuffer(), memory) : null;
    }

    /** The bytes, from their position to their limit, as a buffer of the caller's own (positions are not shared). */
    public ByteBuffer bytes() {
        if (closed.get()) {
            throw new IllegalStateException("lent bytes read after they were closed");
        }
        return bytes.duplicate();
    }

    /** How many bytes there are. */
    public int remaining() {
        return bytes.remaining();
    }

    public boolean hasRemaining() {
        return bytes.hasRemaining();
    }

    /**
     * The same bytes for another holder, to close on its own; null when there are none to share
     * any more (every holder of the memory has let go: read them from where they were stored).
     */
    public LentBytes share() {
        if (memory == null) {
            return this;
        }
        return viewOf(memory, bytes);
    }

    /**
     * {@code length} of the bytes from {@code offset} on (relative to their position) for another
     * holder, to close on its own; null when there are none to share any more. Owned bytes are
     * sliced, with nothing to give back.
     */
    public LentBytes share(int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > bytes.remaining()) {
            throw new IndexOutOfBoundsException("share " + offset + "+" + length + " of " + bytes.remaining() + " bytes");
        }
        ByteBuffer range = bytes.slice(bytes.position() + offset, length);
        return memory == null ? new LentBytes(range, null) : viewOf(memory, range);
    }

    /** Whether the bytes are outside the heap, where a system call can read them from where they are. */
    public boolean direct() {
        return bytes.isDirect();
    }

    /** Lets go of the bytes; the first call counts, later ones do nothing. */
    @Override
    public void close() {
        if (memory != null && closed.compareAndSet(false, true)) {
            memory.release();
        }
    }

    @Override
    public String toString() {
        return "LentBytes[" + bytes.remaining() + (memory == null ? " owned" : " shared") + (closed.get() ? ", closed" : "") + "]";
    }
}
