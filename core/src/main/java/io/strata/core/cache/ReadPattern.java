package io.strata.core.cache;

/**
 * Where a file's recent reads ended, to tell a random read from one that continues a stream. A
 * file read by several sequential streams at once (or one stream whose requests arrive a little
 * out of order from several FUSE threads) keeps up to {@link #STREAMS} ends; a read that starts
 * within {@code slack} bytes of one of them continues that stream.
 */
final class ReadPattern {
    static final int STREAMS = 8;

    private final long slack;
    private final long[] ends = new long[STREAMS];
    private int next;
    private int count;

    ReadPattern(long slack) {
        this.slack = slack;
    }

    /** As {@link #randomRead}, without recording the read. */
    synchronized boolean wouldBeRandom(long offset) {
        for (int i = 0; i < count; i++) {
            if (Math.abs(offset - ends[i]) <= slack) {
                return false;
            }
        }
        return offset != 0;
    }

    /**
     * Records a read of {@code [offset, end)}; true if it is random: it starts neither at 0 nor
     * near where a recent read ended.
     */
    synchronized boolean randomRead(long offset, long end) {
        for (int i = 0; i < count; i++) {
            if (Math.abs(offset - ends[i]) <= slack) {
                ends[i] = end;
                return false;
            }
        }
        ends[next] = end; // a new stream, in place of the oldest
        next = (next + 1) % STREAMS;
        count = Math.min(count + 1, STREAMS);
        return offset != 0;
    }
}
