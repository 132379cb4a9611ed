package io.strata.core.readahead;

/**
 * One stream of reads through a file and its read window: where the stream is expected to read
 * next, and how far ahead of that it is kept fetched. A file keeps a few (interleaved readers of one
 * file each keep their own); the {@link Prefetcher} finds a read's session, advances it and tops
 * up its window.
 *
 * <p>A session starts at a read that matched no other, with no window: one read is not a stream,
 * except a read from the file's first byte, which starts one with a part's window at once
 * ({@link #startSequential}), as the kernel's own readahead takes a read at the start of a file.
 * A read that continues it (exactly where the last one ended, or once it is sequential, anywhere
 * from a part behind to the end of its window: the reads of one stream arrive a little out of order
 * from several FUSE threads) makes it sequential, with the initial window; from then on the
 * window doubles each time the stream has read half a window's worth of bytes since it last
 * changed, up to its share of {@code max_readahead} (all of it when it reads alone). It halves
 * (not below the initial window) when bytes fetched for it go unread or the buffer budget refuses
 * its readahead.
 *
 * <p>Not thread-safe: the {@link Prefetcher}'s lock guards it.
 */
final class ReadaheadSession {
    private long next;
    private long window;
    /** Bytes the stream read since its window last changed. */
    private long readSinceResize;
    private long lastUse;

    ReadaheadSession(long next, long tick) {
        this.next = next;
        this.lastUse = tick;
    }

    /** Where the stream's next read is expected. */
    long next() {
        return next;
    }

    /** Bytes kept fetched ahead of {@link #next}; 0 until the stream is found sequential. */
    long window() {
        return window;
    }

    long lastUse() {
        return lastUse;
    }

    boolean sequential() {
        return window > 0;
    }

    /**
     * Whether a read at {@code offset} belongs to this stream: exactly at {@link #next}, or, once
     * sequential, from {@code behind} bytes before it to the end of the window.
     */
    boolean continues(long offset, long behind) {
        if (offset == next) {
            return true;
        }
        return window > 0 && offset >= next - behind && offset <= next + window;
    }

    /** How far a read at {@code offset} is from where this stream expects it, to pick the closest stream. */
    long distance(long offset) {
        return Math.abs(offset - next);
    }

    /**
     * A read of this stream, {@code [offset, end)}: moves the stream on and grows its window, up to
     * {@code maxWindow} (its share of {@code max_readahead}, see {@link ReadaheadConfig#streamWindow});
     * a window above that, grown while the stream read alone, comes down to it. Growth counts the
     * bytes read, not the distance moved, so a reader striding through its window (and leaving
     * readahead unread, which shrinks it) does not grow it back.
     */
    void advance(long offset, long end, long tick, long maxWindow, ReadaheadConfig config) {
        lastUse = tick;
        next = Math.max(next, end);
        if (!config.readahead()) {
            return;
        }
        if (window == 0) {
            window = config.firstWindow();
            readSinceResize = 0;
            return;
        }
        readSinceResize += end - offset;
        if (window > maxWindow) {
            window = Math.max(config.firstWindow(), maxWindow);
            readSinceResize = 0;
        } else if (readSinceResize >= window / 2 && window < maxWindow) {
            window = Math.min(maxWindow, window * 2);
            readSinceResize = 0;
        }
    }

    /**
     * Makes a new session sequential from its first read with {@code firstWindow}: a read of a file's
     * first bytes, which reads on far more often than not ({@code cat}, {@code cp}, a scan). Waiting
     * for the second read, then growing from one page, kept a cold stream's first 64 MiB in small
     * GETs on new connections, each slowed by TCP slow start: at a 20 ms round trip the first
     * 64 MiB took 1.0-1.7 s instead of 0.66-0.84 (docs/PERFORMANCE.md, forty-seventh round).
     */
    void startSequential(long firstWindow) {
        if (window == 0) {
            window = firstWindow;
            readSinceResize = 0;
        }
    }

    /** Bytes fetched for this stream went unread, or memory is short: halves the window. */
    void shrink(ReadaheadConfig config) {
        if (window > 0) {
            window = Math.max(config.firstWindow(), window / 2);
            readSinceResize = 0;
        }
    }

    @Override
    public String toString() {
        return "ReadaheadSession[next " + next + ", window " + window + "]";
    }
}
