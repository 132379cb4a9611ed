package io.strata.fuse.kernel;

import io.strata.core.cache.PageRegion;
import io.strata.core.cache.PageRegions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One worker's pipe for READ replies spliced from page files: the reply's header is written into
 * the pipe, each region's bytes spliced in from its file (the pipe takes references to the page
 * cache's pages, no copy), and the whole reply spliced out to {@code /dev/fuse}, where the kernel
 * copies it once, into the reader's pages. A copied reply costs a second copy, into the JVM's
 * buffer, and that copy out of memory the CPU's caches do not hold was the largest cost of
 * 128 KiB random reads from the disk tier (docs/PERFORMANCE.md, twenty-third round).
 *
 * <p>A reply must be in the pipe whole before it goes out (the kernel takes one reply per write),
 * so the pipe's capacity bounds what can be spliced: a slot of a page for the header and one for
 * each file page a region touches. A pipe of 2 MiB takes a reply of 1 MiB; without
 * CAP_SYS_RESOURCE a pipe grows to pipe-max-size only, 1 MiB by default, 256 slots, and the
 * largest read it takes is 1020 KiB ({@link #largestSplicedRead}, which the mount's max_read
 * follows unless it is given). The pipe never blocks: a reply that does not fit, or any failure
 * before the kernel took it, leaves the reply to be copied instead, with a fresh pipe. Owned by
 * one worker thread.
 */
final class SplicePipe implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SplicePipe.class);
    private static final int F_SETPIPE_SZ = 1031;
    private static final int SPLICE_F_MOVE = 1;
    private static final int SPLICE_F_NONBLOCK = 2;
    private static final int PAGE = 4096;
    /** What the pipe is asked to hold first: a 1 MiB reply and its header (pipes hold a power of two pages). */
    private static final int WANTED_CAPACITY = 2 << 20;
    /** The default pipe-max-size: all a process without CAP_SYS_RESOURCE gets. */
    private static final int FALLBACK_CAPACITY = 1 << 20;
    /**
     * Below this a copy costs no more than the splices' extra system calls (4 KiB reads measured
     * the same either way).
     */
    static final int MIN_LENGTH = 32 << 10;

    private final ByteBuffer offset = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
    private final long offsetAddress = FuseDevice.address(offset);
    private int readEnd = -1;
    private int writeEnd = -1;
    private int slots;

    private SplicePipe() {}

    /** A worker's pipe, or null where splicing cannot work (no descriptors of channels, no pipe). */
    static SplicePipe open() {
        if (!FileDescriptors.available() || !Splice.available()) {
            return null;
        }
        SplicePipe pipe = new SplicePipe();
        return pipe.reopen() ? pipe : null;
    }

    /**
     * The largest read whose reply a worker's pipe takes whole, its header included (the capacity
     * less a page); 0 where reads cannot be spliced here. Opens and closes a pipe to find out.
     */
    static int largestSplicedRead() {
        try (SplicePipe probe = open()) {
            return probe == null ? 0 : (probe.slots - 1) * PAGE;
        }
    }

    /**
     * Whether a reply of {@code length} bytes could be spliced: worth it, and within the pipe if its
     * regions start on page boundaries ({@link #send} counts their slots exactly).
     */
    boolean worth(int length) {
        return length >= MIN_LENGTH && 1 + (length + PAGE - 1) / PAGE <= slots;
    }

    /**
     * Sends the reply whose {@code headLength}-byte header is at {@code headAddress}, followed by
     * {@code regions}' bytes, to {@code device}. True if the kernel took it or no longer waits for
     * it (an interrupted request); false if nothing reached the kernel, to be copied instead.
     */
    boolean send(FuseDevice device, long headAddress, int headLength, PageRegions regions) {
        if (writeEnd < 0 || slotsFor(regions) > slots) {
            return false;
        }
        LibC libc = LibC.get();
        if (libc.write(writeEnd, headAddress, headLength) != headLength) {
            return failed("writing the header into the pipe");
        }
        for (PageRegion region : regions.regions()) {
            int fd = FileDescriptors.of(region.file());
            long position = region.position();
            long remaining = region.length();
            while (remaining > 0) {
                offset.putLong(0, position);
                long n = fd < 0 ? -1 : Splice.splice(fd, offsetAddress, writeEnd, 0, remaining,
                        SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
                if (n <= 0) {
                    return failed("splicing a page file into the pipe");
                }
                position += n;
                remaining -= n;
            }
        }
        long total = (long) headLength + regions.length();
        // No SPLICE_F_MOVE out: into a read-ahead of the mount's page cache the kernel would try to
        // steal the page files' pages rather than copy them (fuse_try_move_page).
        long n = Splice.splice(readEnd, 0, device.fd(), 0, total, SPLICE_F_NONBLOCK);
        if (n == total) {
            return true;
        }
        // ENOENT: the request was interrupted and nobody waits for the reply any more.
        boolean moot = n < 0 && Splice.errno() == Errno.ENOENT;
        failed("splicing the reply to /dev/fuse");
        return moot;
    }

    /** The pipe slots a reply of {@code regions} takes: one per file page a region touches, one for the header. */
    private static int slotsFor(PageRegions regions) {
        int count = 1;
        for (PageRegion region : regions.regions()) {
            long first = region.position() / PAGE;
            long end = (region.position() + region.length() + PAGE - 1) / PAGE;
            count += (int) (end - first);
        }
        return count;
    }

    /** Drops whatever the pipe holds by replacing it; false for the caller to copy instead. */
    private boolean failed(String what) {
        log.debug("{} failed with errno {}; the reply is copied", what, Splice.errno());
        closePipe();
        reopen();
        return false;
    }

    private boolean reopen() {
        int[] fds = new int[2];
        LibC libc = LibC.get();
        if (libc.pipe2(fds, LibC.O_NONBLOCK | LibC.O_CLOEXEC) != 0) {
            log.debug("pipe2 failed with errno {}; reads are copied", LibC.errno());
            return false;
        }
        readEnd = fds[0];
        writeEnd = fds[1];
        int capacity = libc.fcntl(writeEnd, F_SETPIPE_SZ, WANTED_CAPACITY);
        if (capacity < 0) {
            capacity = libc.fcntl(writeEnd, F_SETPIPE_SZ, FALLBACK_CAPACITY);
        }
        slots = Math.max(capacity, PAGE * 16) / PAGE; // a pipe that could not grow keeps its default 16 pages
        return true;
    }

    private void closePipe() {
        if (readEnd >= 0) {
            LibC.get().close(readEnd);
            LibC.get().close(writeEnd);
            readEnd = -1;
            writeEnd = -1;
        }
    }

    @Override
    public void close() {
        closePipe();
    }
}
