package io.strata.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Positional writes through the kernel's page cache, each system call at most {@link #PIECE} bytes.
 *
 * <p>Why pieces: a buffered write on Linux 6.x asks the page cache for folios as large as the write
 * allows (ext4 among others), and large new folios are slow to fill on the machines measured (kernel
 * 6.18 in a VM): 2 GiB written after the page cache was dropped went at 450-820 MiB/s in writes of
 * 512 KiB to 2 MiB and at 3.1-5.4 GB/s in writes of 64-256 KiB, the difference all in the kernel's
 * copy into the new folios ({@code bench/page-cache-writes.sh} repeats the measurement). Through a
 * mount of a local directory, a 2 GiB write of 1 MiB requests cost the daemon 4.4 s of CPU in
 * whole-request writes and 1.0 s in pieces (docs/PERFORMANCE.md, fourteenth round). Four system
 * calls per MiB instead of one cost nothing next to that. Reads are not cut: 2 GiB read cold in
 * 1 MiB reads went faster than in 128 KiB ones.
 */
public final class PageCacheWrites {
    /** The largest write handed to the kernel at once. */
    public static final int PIECE = 256 * 1024;

    private PageCacheWrites() {
    }

    /**
     * Writes all of {@code src} to {@code channel} at {@code position}; {@code src}'s position ends at
     * its limit.
     *
     * @return the position just past the bytes written
     */
    public static long writeFully(FileChannel channel, ByteBuffer src, long position) throws IOException {
        long at = position;
        while (src.hasRemaining()) {
            int piece = Math.min(src.remaining(), PIECE);
            int written = channel.write(src.slice(src.position(), piece), at);
            src.position(src.position() + written);
            at += written;
        }
        return at;
    }
}
