package io.strata.core.cache;

/**
 * Where a file's recent reads ended, to tell a random read from one that continues a stream. A
 * file read by several sequential streams at once keeps up to {@link #STREAMS} ends.
 *
 * <p>A read continues a stream if it starts within {@code slack} bytes of the stream's end. Once a
 * stream is proven (a second read continued it), a read anywhere within {@link #REACH_PAGES}
 * pages either side of its end continues it too: the kernel's readahead keeps several requests of
 * one stream in flight, each up to max_read (1020 KiB where a worker's pipe holds 1 MiB), and the
 * FUSE workers take them in any order, so a request can arrive after ones several requests further
 * on. Counted as random, each such straggler had its whole block loaded behind the stream
 * (docs/PERFORMANCE.md, forty-first round). A single read proves nothing, so a random reader's
 * reads keep only the slack, and a straggler never moves its stream's end back.
 */
final class ReadPattern {
    static final int STREAMS = 8;
    /**
     * How far a proven stream's requests may arrive out of order, in slacks (a page each, as the
     * page cache sets it): 8 MiB, the readahead's part.
     */
    static final int REACH_PAGES = 8;

    private final long slack;
    private final long reach;
    private final long[] ends = new long[STREAMS];
    private final boolean[] proven = new boolean[STREAMS];
    private int next;
    private int count;

    ReadPattern(long slack) {
        this.slack = slack;
        this.reach = REACH_PAGES * slack;
    }

    /** As {@link #randomRead}, without recording the read. */
    synchronized boolean wouldBeRandom(long offset) {
        return streamOf(offset) < 0 && offset != 0;
    }

    /**
     * Records a read of {@code [offset, end)}; true if it is random: it starts neither at 0 nor
     * where it would continue a recent stream.
     */
    synchronized boolean randomRead(long offset, long end) {
        int stream = streamOf(offset);
        if (stream >= 0) {
            boolean straggler = offset < ends[stream] - slack;
            ends[stream] = straggler ? Math.max(ends[stream], end) : end;
            proven[stream] = true;
            return false;
        }
        ends[next] = end; // a new stream, in place of the oldest
        proven[next] = false;
        next = (next + 1) % STREAMS;
        count = Math.min(count + 1, STREAMS);
        return offset != 0;
    }

    /** The stream a read at {@code offset} continues, the closest if several would; -1 if none. */
    private int streamOf(long offset) {
        int closest = -1;
        long closestDistance = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            long distance = Math.abs(offset - ends[i]);
            if ((distance <= slack || proven[i] && distance <= reach) && distance < closestDistance) {
                closest = i;
                closestDistance = distance;
            }
        }
        return closest;
    }
}
