package io.strata.core.cache;

import io.strata.core.buffer.LentBytes;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where missing pages come from: positional reads of one version of a file (a {@code UfsFile}). */
@FunctionalInterface
public interface PageSource {
    /** Reads into {@code dst} from {@code offset}; returns bytes read, or -1 at end of file. */
    int read(ByteBuffer dst, long offset) throws IOException;

    /**
     * Up to {@code length} bytes at {@code offset}, held by the cache until it closes them (the
     * page it stores); empty at the end of the file. The default copies them; a source holding
     * them already (see {@code UfsFile#readRange}) may lend a view, possibly shorter than asked.
     */
    default LentBytes readRange(long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining() && read(buffer, offset + buffer.position()) > 0) {
            // until the buffer is full or the file ends
        }
        return LentBytes.owned(buffer.flip());
    }

    /** A hint that {@code [offset, offset + length)} will be read soon, in order; see {@code UfsFile#willNeed}. */
    default void willNeed(long offset, long length) {}
}
