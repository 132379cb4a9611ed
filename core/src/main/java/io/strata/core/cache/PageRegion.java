package io.strata.core.cache;

import java.nio.channels.FileChannel;

import static java.util.Objects.requireNonNull;

/**
 * Part of a stored page's bytes where they lie in its page file, checked against the page's
 * checksums and lent until closed: a FUSE transport splices them to the kernel straight from the
 * file, without copying them through the JVM. While lent the file stays open, so its bytes stay
 * readable even if the page is evicted meanwhile. Owned by one reader; close it once.
 */
public final class PageRegion implements AutoCloseable {
    private final FileChannel file;
    private final long position;
    private final int length;
    private final Runnable release;

    PageRegion(FileChannel file, long position, int length, Runnable release) {
        this.file = requireNonNull(file, "file is null");
        this.position = position;
        this.length = length;
        this.release = requireNonNull(release, "release is null");
    }

    /** The page file, open for reading; not to be closed by the borrower. */
    public FileChannel file() {
        return file;
    }

    /** Where the region starts in the file. */
    public long position() {
        return position;
    }

    /** The region's length in bytes; 0 past the page's end. */
    public int length() {
        return length;
    }

    /** Gives the file back. */
    @Override
    public void close() {
        release.run();
    }
}
