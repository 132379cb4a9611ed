package io.strata.core.readahead;

import io.strata.core.conf.Options;

/**
 * The readahead engine's settings for one volume, bound from {@link ReadaheadOptions} and frozen;
 * the sizes that are not options (block, part, initial window, sessions per file) are fixed here
 * and only tests change them.
 *
 * @param maxReadahead the largest window of a sequential session, reading alone; streams reading at
 *     once share it ({@link #streamWindow}); 0: no readahead
 * @param prefetch whether a small random read fetches its whole aligned block (or the file's tail)
 * @param bufferSize bytes the engine's buffers may hold, in flight or fetched and not yet read
 * @param blockSize the unit of prefetch: a random read fetches its aligned block of this size
 * @param partSize the largest single ranged GET; windows are fetched as parts of at most this
 * @param initialWindow a session's window when it is first found sequential
 * @param tailSize a random read within this many bytes of the end fetches the tail from the block
 *     boundary below {@code size - tailSize} to the end
 * @param maxSessions sequential sessions kept per open file; the least recently used one goes
 */
public record ReadaheadConfig(long maxReadahead, boolean prefetch, long bufferSize, int blockSize, int partSize,
                              int initialWindow, int tailSize, int maxSessions) {
    public static final int DEFAULT_BLOCK_SIZE = 1 << 20;
    public static final int DEFAULT_PART_SIZE = 8 << 20;
    public static final int DEFAULT_INITIAL_WINDOW = 1 << 20;
    public static final int DEFAULT_TAIL_SIZE = 1 << 20;
    public static final int DEFAULT_MAX_SESSIONS = 8;

    /** The defaults of the options. */
    public static final ReadaheadConfig DEFAULT = from(Options.defaults());

    public ReadaheadConfig {
        check(maxReadahead >= 0, "maxReadahead", maxReadahead);
        check(bufferSize > 0, "bufferSize", bufferSize);
        check(blockSize > 0, "blockSize", blockSize);
        check(partSize > 0, "partSize", partSize);
        check(initialWindow > 0, "initialWindow", initialWindow);
        check(tailSize >= 0, "tailSize", tailSize);
        check(maxSessions > 0, "maxSessions", maxSessions);
    }

    /** The options' values with the fixed sizes. */
    public static ReadaheadConfig of(long maxReadahead, boolean prefetch, long bufferSize) {
        return new ReadaheadConfig(maxReadahead, prefetch, bufferSize, DEFAULT_BLOCK_SIZE, DEFAULT_PART_SIZE,
                DEFAULT_INITIAL_WINDOW, DEFAULT_TAIL_SIZE, DEFAULT_MAX_SESSIONS);
    }

    public static ReadaheadConfig from(Options options) {
        return of(options.get(ReadaheadOptions.MAX_READAHEAD).bytes(), options.get(ReadaheadOptions.PREFETCH),
                options.get(ReadaheadOptions.BUFFER_SIZE).bytes());
    }

    /** Whether sequential sessions read ahead at all. */
    boolean readahead() {
        return maxReadahead > 0;
    }

    /**
     * The largest window of one stream while {@code streams} read at once: an equal share of
     * {@link #maxReadahead}, but never less than two parts (one being read, one in flight) nor more
     * than the maximum.
     */
    long streamWindow(int streams) {
        long share = maxReadahead / Math.max(1, streams);
        return Math.min(maxReadahead, Math.max(2L * partSize, share));
    }

    /**
     * The first window of a session that starts at a file's first byte: a part, never above the
     * maximum. Its top-up ends on the part grid, so a reader that stops early (a {@code head})
     * leaves less than two parts unread, and its close cancels what is still in flight.
     */
    long startWindow() {
        return Math.min(partSize, maxReadahead);
    }

    /** The first window of a sequential session: the initial size, never above the maximum. */
    long firstWindow() {
        return Math.min(initialWindow, maxReadahead);
    }

    private static void check(boolean ok, String name, long value) {
        if (!ok) {
            throw new IllegalArgumentException(name + " is out of range: " + value);
        }
    }
}
