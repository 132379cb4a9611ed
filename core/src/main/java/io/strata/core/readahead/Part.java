package io.strata.core.readahead;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One ranged GET and its bytes: {@code [start, end)} of the object, a {@link FetchedRange} once fetched,
 * holding {@code end - start} bytes of the {@link BufferBudget} from before the request until it
 * is dropped and no reader copies from it any more.
 *
 * <p>The mutable fields are guarded by the owning {@link Prefetcher}'s lock; the fetch future is
 * set once, right after the part is registered, under the same lock.
 */
final class Part {
    final long start;
    final long end;
    /** Readahead (true) or bytes a reader asked for (false). */
    final boolean speculative;
    /** Creation order in its file: reclaim drops the oldest first. */
    final long sequence;
    private final BufferBudget budget;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile CompletableFuture<FetchedRange> data;

    /** The session that asked for it; null once that session is gone. */
    ReadaheadSession owner;
    /** Readers between pinning it and copying from it; it is never released while pinned. */
    int pins;
    /** Bytes copied out so far (a range read twice counts twice: it is dropped early, never late). */
    long consumed;
    /** No longer in the file's table: nobody new finds it. */
    boolean dropped;

    Part(long start, long end, ReadaheadSession owner, boolean speculative, long sequence, BufferBudget budget) {
        if (start < 0 || end <= start || end - start > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad part range [" + start + ", " + end + ")");
        }
        this.start = start;
        this.end = end;
        this.owner = owner;
        this.speculative = speculative;
        this.sequence = sequence;
        this.budget = budget;
    }

    int length() {
        return (int) (end - start);
    }

    void started(CompletableFuture<FetchedRange> fetch) {
        this.data = fetch;
    }

    boolean done() {
        CompletableFuture<FetchedRange> fetch = data;
        return fetch != null && fetch.isDone();
    }

    boolean succeeded() {
        CompletableFuture<FetchedRange> fetch = data;
        return fetch != null && fetch.isDone() && !fetch.isCompletedExceptionally();
    }

    /** Waits for the bytes; the fetch's failure as an IOException. */
    FetchedRange await() throws IOException {
        try {
            return data.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for bytes " + start + "-" + end);
        } catch (ExecutionException e) {
            throw asIOException(e.getCause());
        } catch (CancellationException e) {
            throw new IOException("fetch of bytes " + start + "-" + end + " was abandoned", e);
        }
    }

    /**
     * Gives the reservation and the bytes back once the part is dropped and unpinned (cancelling a
     * fetch still running, whose bytes nobody will read: its fetcher lets go of them); at most once.
     */
    void releaseIfUnused() {
        if (!dropped || pins > 0 || !released.compareAndSet(false, true)) {
            return;
        }
        CompletableFuture<FetchedRange> fetch = data;
        if (fetch != null && !fetch.cancel(true) && !fetch.isCompletedExceptionally()) {
            fetch.join().release(); // done before the cancel: the bytes are the part's
        }
        budget.release(length());
    }

    static IOException asIOException(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof java.util.concurrent.CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof UncheckedIOException unchecked) {
            return unchecked.getCause();
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException("fetch failed: " + cause, cause);
    }

    @Override
    public String toString() {
        return "Part[" + start + "-" + end + (speculative ? ", ahead" : "") + (dropped ? ", dropped" : "") + "]";
    }
}
