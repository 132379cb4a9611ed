package io.strata.core.buffer;

import java.nio.ByteBuffer;

/**
 * A read's destination that can take bytes lent in memory as they are, instead of a copy: a FUSE
 * reply written with one {@code writev(2)} from the lender's memory, so a readahead part's bytes
 * reach the kernel with one copy, the kernel's. Used by one reading thread at a time.
 */
public interface LentBytesSink {
    /**
     * Takes {@code bytes} as the next {@code bytes.remaining()} bytes of {@code dst}, from its
     * position on: on true the sink holds them (and closes them once used) and the caller moves
     * {@code dst}'s position past them without copying; on false the caller copies them and still
     * owns {@code bytes}.
     */
    boolean take(ByteBuffer dst, LentBytes bytes);

    /** Closes and forgets the bytes taken at or after {@code position} of the destination: it is read again from there. */
    void dropFrom(int position);
}
