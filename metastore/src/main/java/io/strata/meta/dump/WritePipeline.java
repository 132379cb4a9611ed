package io.strata.meta.dump;

import io.strata.core.concurrent.DaemonThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * Keeps up to {@code inFlight} batches of a load being written by {@code threads} writers while
 * the parser goes on: {@link #submit} waits only when that many are outstanding. The first
 * failure of any batch is rethrown by the next {@link #submit} or by {@link #await}.
 */
final class WritePipeline implements AutoCloseable {
    private final LoadTarget target;
    private final ExecutorService writers;
    private final Semaphore slots;
    private final int inFlight;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean abandoned;

    WritePipeline(LoadTarget target, int threads, int inFlight) {
        this.target = requireNonNull(target, "target is null");
        this.inFlight = inFlight;
        this.slots = new Semaphore(inFlight);
        this.writers = Executors.newFixedThreadPool(threads, DaemonThreads.numbered("strata-load"));
    }

    void submit(LoadBatch batch) throws IOException {
        checkFailure();
        acquire(1);
        writers.execute(() -> {
            try {
                if (failure.get() == null && !abandoned) {
                    target.write(batch);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                slots.release();
            }
        });
    }

    /** Waits until every submitted batch is written. */
    void await() throws IOException {
        acquire(inFlight);
        slots.release(inFlight);
        checkFailure();
    }

    /**
     * Stops a failed load: batches not started yet are skipped, and this waits until none is
     * being written, so that the load can be undone without a batch landing afterwards.
     */
    void abandon() throws InterruptedIOException {
        abandoned = true;
        acquire(inFlight);
        slots.release(inFlight);
    }

    @Override
    public void close() {
        writers.shutdownNow();
    }

    private void acquire(int permits) throws InterruptedIOException {
        try {
            slots.acquire(permits);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while loading");
        }
    }

    private void checkFailure() throws IOException {
        Throwable t = failure.get();
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw new IOException(io.getMessage(), io);
        }
        if (t instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        throw new IOException(t);
    }
}
