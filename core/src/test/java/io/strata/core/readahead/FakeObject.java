package io.strata.core.readahead;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake {@link RangeFetcher} over bytes in memory, for the window logic and accounting tests that
 * need to see and steer every request: it records each request, tracks the bytes in flight and
 * their peak, and completes requests at once, on an executor, or when the test releases them.
 * Tests that need real parts (an S3 server, the SDK's retries) are in
 * {@code io.strata.core.ufs.s3.S3ReadaheadTest}.
 */
final class FakeObject implements RangeFetcher {
    /** One request: its range. */
    record Request(long offset, int length) {}

    final byte[] data;
    private final List<Request> requests = new ArrayList<>();
    private final List<Runnable> held = new ArrayList<>();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong peakInFlight = new AtomicLong();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile boolean hold;
    private volatile boolean lend;
    /** Ranges completed in lent memory, and how many of them went back. */
    final AtomicInteger lent = new AtomicInteger();
    final AtomicInteger givenBack = new AtomicInteger();
    private volatile Executor executor;

    FakeObject(int size, long seed) {
        data = new byte[size];
        new Random(seed).nextBytes(data);
    }

    /** Requests from now on wait for {@link #releaseHeld()}. */
    FakeObject hold() {
        hold = true;
        return this;
    }

    /** Requests from now on complete on {@code executor}. */
    FakeObject completeOn(Executor executor) {
        this.executor = executor;
        return this;
    }

    /** Requests from now on complete in lent direct memory, as the S3 client's pool lends it. */
    FakeObject lend() {
        lend = true;
        return this;
    }

    /** The next {@code count} requests fail with an IOException. */
    FakeObject failNext(int count) {
        failuresLeft.set(count);
        return this;
    }

    private FetchedRange lentRange(long offset, int n, int blockSize) {
        FetchedRange range = FetchedRange.allocate(offset, n, blockSize);
        if (!range.adopt(ByteBuffer.allocateDirect(n).put(data, (int) offset, n).flip(), givenBack::incrementAndGet)) {
            throw new AssertionError("a new range declined its bytes");
        }
        lent.incrementAndGet();
        return range;
    }

    @Override
    public CompletableFuture<FetchedRange> fetch(long offset, int length, int blockSize) {
        if (offset < 0 || length <= 0 || offset >= data.length) {
            throw new AssertionError("bad request " + offset + "+" + length);
        }
        synchronized (this) {
            requests.add(new Request(offset, length));
        }
        long now = inFlight.addAndGet(length);
        peakInFlight.accumulateAndGet(now, Math::max);
        CompletableFuture<FetchedRange> future = new CompletableFuture<>();
        boolean fail = failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        Runnable complete = () -> {
            inFlight.addAndGet(-length);
            if (fail) {
                future.completeExceptionally(new IOException("injected failure at " + offset));
            } else {
                int n = (int) Math.min(length, data.length - offset);
                FetchedRange range = lend ? lentRange(offset, n, blockSize)
                        : FetchedRange.copyOf(offset, ByteBuffer.wrap(data, (int) offset, n), blockSize);
                if (!future.complete(range)) {
                    range.release(); // cancelled meanwhile, as a fetcher must
                }
            }
        };
        // A cancelled request is no longer in flight either.
        future.whenComplete((r, e) -> {
            if (future.isCancelled()) {
                inFlight.addAndGet(-length);
            }
        });
        Runnable guarded = () -> {
            if (!future.isDone()) {
                complete.run();
            }
        };
        boolean deferred;
        // Decided under releaseHeld's lock: a request checked "held" before a release is listed before it.
        synchronized (this) {
            deferred = hold;
            if (deferred) {
                held.add(guarded);
            }
        }
        if (deferred) {
            return future;
        }
        if (executor != null) {
            executor.execute(guarded);
        } else {
            guarded.run();
        }
        return future;
    }

    /** Completes the held requests. */
    void releaseHeld() {
        List<Runnable> now;
        synchronized (this) {
            hold = false;
            now = new ArrayList<>(held);
            held.clear();
        }
        now.forEach(Runnable::run);
    }

    synchronized List<Request> requests() {
        return new ArrayList<>(requests);
    }

    synchronized int requestCount() {
        return requests.size();
    }

    synchronized long requestedBytes() {
        return requests.stream().mapToLong(Request::length).sum();
    }

    long peakInFlight() {
        return peakInFlight.get();
    }

    /** The object's bytes {@code [offset, offset + length)}. */
    byte[] slice(long offset, int length) {
        byte[] out = new byte[length];
        System.arraycopy(data, (int) offset, out, 0, length);
        return out;
    }
}
