package io.strata.core.ufs;

import io.strata.core.buffer.LentBytes;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * An open file in the under storage, read and written at explicit offsets.
 *
 * <p>Instances are safe for concurrent positional reads and writes from several threads; the
 * caller orders overlapping writes. Closing releases the storage handle; data already written is
 * durable only after {@link #force()}.
 */
public interface UfsFile extends Closeable {
    /** Reads into {@code dst} from {@code offset}; returns bytes read, or -1 at end of file. */
    int read(ByteBuffer dst, long offset) throws IOException;

    /**
     * Reads up to {@code length} bytes at {@code offset}, held by the caller until it closes them;
     * empty at the end of the file. The default copies them into a new buffer, as many as there
     * are; a file that already holds the bytes in memory (the S3 readahead) may lend a view of them
     * instead, which can be shorter than asked: callers that need them all ask again for the rest.
     */
    default LentBytes readRange(long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining() && read(buffer, offset + buffer.position()) > 0) {
            // until the buffer is full or the file ends
        }
        return LentBytes.owned(buffer.flip());
    }

    /**
     * A hint that {@code [offset, offset + length)} will be read soon, in order: a file that reads
     * ahead (the S3 readahead) may start fetching all of it now. The default does nothing. Never
     * waits and never fails.
     */
    default void willNeed(long offset, long length) {}

    /** Writes all of {@code src} at {@code offset}, growing the file as needed. */
    void write(ByteBuffer src, long offset) throws IOException;

    /** Sets the file's length, cutting it or extending it with zeros. */
    void truncate(long size) throws IOException;

    /** Current length in bytes. */
    long size() throws IOException;

    /** Makes written data durable. */
    void force() throws IOException;

    /** The content version after the writes so far (see {@link UfsStatus#version()}). */
    String version() throws IOException;

    /**
     * Takes the storage's current content of a file opened with
     * {@link UnderFileSystem#openRecorded} after a read found the recorded version gone: reads
     * serve the current version from now on. Returns its status, or empty where the storage has
     * nothing to refresh (it never opens from a record).
     */
    default Optional<UfsStatus> refresh() throws IOException {
        return Optional.empty();
    }
}
