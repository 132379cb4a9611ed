package io.strata.core.readahead;

import java.util.concurrent.atomic.LongAdder;

/** Counters of one volume's readahead engine, for tests, benchmarks and metrics. */
public final class ReadaheadStats {
    final LongAdder requests = new LongAdder();
    final LongAdder requestedBytes = new LongAdder();
    final LongAdder readaheadRequests = new LongAdder();
    final LongAdder joinedReads = new LongAdder();
    final LongAdder unreadBytes = new LongAdder();
    final LongAdder refusedReadahead = new LongAdder();
    final LongAdder reclaimedBytes = new LongAdder();

    /** Ranged GETs started. */
    public long requests() {
        return requests.sum();
    }

    /** Bytes asked for by those GETs. */
    public long requestedBytes() {
        return requestedBytes.sum();
    }

    /** GETs that were readahead (the rest were for bytes a reader was asking for). */
    public long readaheadRequests() {
        return readaheadRequests.sum();
    }

    /** Reads that waited for a GET another read (or readahead) had started, rather than starting one. */
    public long joinedReads() {
        return joinedReads.sum();
    }

    /** Fetched bytes dropped unread: readahead past where a stream stopped, parts of evicted sessions. */
    public long unreadBytes() {
        return unreadBytes.sum();
    }

    /** Readahead parts not requested because the buffer budget was full (the window shrank instead). */
    public long refusedReadahead() {
        return refusedReadahead.sum();
    }

    /** Bytes given back to the budget under pressure, for readers waiting for room. */
    public long reclaimedBytes() {
        return reclaimedBytes.sum();
    }

    @Override
    public String toString() {
        return "ReadaheadStats[requests " + requests() + " (" + readaheadRequests() + " ahead), bytes "
                + requestedBytes() + ", joined " + joinedReads() + ", unread " + unreadBytes() + ", refused "
                + refusedReadahead() + ", reclaimed " + reclaimedBytes() + "]";
    }
}
