package io.strata.core.ufs.s3;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.DelegatingS3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The Netty client, with GetObject (the data path) sent through the CRT client instead.
 *
 * <p>The CRT client has no timeout for a response that never starts (its connection monitor
 * watches bodies, not the wait for a response head). So a GET whose response head has not arrived
 * within {@code firstByteTimeout} is abandoned (cancelled, its later callbacks ignored) and sent
 * again through Netty, whose timeouts and retries then apply, as they do to every other request.
 *
 * <p>The CRT client is built on a thread of its own (loading its native library takes ~0.1 s,
 * which a mount need not wait for); until it is ready, or if it cannot be built on this machine,
 * GETs go through Netty.
 */
final class CrtReadsClient extends DelegatingS3AsyncClient {
    private static final Logger log = LoggerFactory.getLogger(CrtReadsClient.class);

    private final CompletableFuture<S3AsyncClient> reads;
    private final long firstByteTimeoutNanos;
    private final ScheduledThreadPoolExecutor watchdogs;
    private final AtomicLong crtGets = new AtomicLong();

    /** @param reads builds the CRT client; it runs on a thread of its own */
    CrtReadsClient(S3AsyncClient control, Supplier<S3AsyncClient> reads, Duration firstByteTimeout) {
        super(control);
        requireNonNull(reads, "reads is null");
        this.reads = new CompletableFuture<>();
        Thread builder = new Thread(() -> {
            try {
                this.reads.complete(reads.get());
            } catch (RuntimeException | Error e) {
                log.warn("the CRT S3 client is unavailable, object reads go through Netty: {}", e.toString());
                this.reads.completeExceptionally(e);
            }
        }, "strata-s3-crt-start");
        builder.setDaemon(true);
        builder.start();
        this.firstByteTimeoutNanos = firstByteTimeout.toNanos();
        this.watchdogs = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "strata-s3-first-byte");
            t.setDaemon(true);
            return t;
        });
        watchdogs.setRemoveOnCancelPolicy(true); // most GETs answer in time: their timers go at once
    }

    @Override
    public <T> CompletableFuture<T> getObject(GetObjectRequest request,
                                              AsyncResponseTransformer<GetObjectResponse, T> transformer) {
        S3AsyncClient client = readyCrtClient();
        if (client == null) {
            return super.getObject(request, transformer);
        }
        crtGets.incrementAndGet();
        GatedAttempt<T> attempt = new GatedAttempt<>(transformer);
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<T> crt = client.getObject(request, attempt);
        ScheduledFuture<?> watchdog = watchdogs.schedule(() -> {
            if (attempt.abandon()) {
                crt.cancel(true);
                CompletableFuture<T> netty = super.getObject(request, transformer);
                netty.whenComplete((value, error) -> settle(result, value, error));
                result.whenComplete((value, error) -> {
                    if (result.isCancelled()) {
                        netty.cancel(true);
                    }
                });
            }
        }, firstByteTimeoutNanos, TimeUnit.NANOSECONDS);
        crt.whenComplete((value, error) -> {
            watchdog.cancel(false);
            if (!attempt.abandoned()) {
                settle(result, value, error);
            }
        });
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                watchdog.cancel(false);
                crt.cancel(true);
            }
        });
        return result;
    }

    /** Waits until the CRT client is built or failed to be; true if it is there. For tests. */
    boolean awaitCrtClient() {
        return reads.handle((built, failure) -> built != null).join();
    }

    /** GETs sent to the CRT client so far. For tests. */
    long crtGets() {
        return crtGets.get();
    }

    /** The CRT client if it is built; null while it is being built or when it could not be. */
    private S3AsyncClient readyCrtClient() {
        return reads.isDone() && !reads.isCompletedExceptionally() ? reads.join() : null;
    }

    private static <T> void settle(CompletableFuture<T> result, T value, Throwable error) {
        if (error != null) {
            result.completeExceptionally(error);
        } else {
            result.complete(value);
        }
    }

    @Override
    public void close() {
        watchdogs.shutdownNow();
        try {
            S3AsyncClient client = reads.handle((built, failure) -> built).join(); // waits for a build in progress
            if (client != null) {
                client.close();
            }
        } finally {
            super.close();
        }
    }

    /**
     * Passes the CRT attempt's callbacks to the caller's transformer until the attempt is
     * abandoned; after that they go nowhere, so they cannot touch the Netty attempt that replaced it.
     */
    private static final class GatedAttempt<T> implements AsyncResponseTransformer<GetObjectResponse, T>, ChunkCopying {
        private enum State { WAITING, STARTED, FAILED, ABANDONED }

        private final AsyncResponseTransformer<GetObjectResponse, T> delegate;
        private final AtomicReference<State> state = new AtomicReference<>(State.WAITING);

        GatedAttempt(AsyncResponseTransformer<GetObjectResponse, T> delegate) {
            this.delegate = delegate;
        }

        @Override
        public boolean copiesChunks() {
            return delegate instanceof ChunkCopying copying && copying.copiesChunks();
        }

        /** Abandons the attempt if no response has started and it has not failed; true if it did. */
        boolean abandon() {
            return state.compareAndSet(State.WAITING, State.ABANDONED);
        }

        boolean abandoned() {
            return state.get() == State.ABANDONED;
        }

        @Override
        public CompletableFuture<T> prepare() {
            return delegate.prepare();
        }

        @Override
        public void onResponse(GetObjectResponse response) {
            if (state.compareAndSet(State.WAITING, State.STARTED) || state.get() == State.STARTED) {
                delegate.onResponse(response);
            }
        }

        @Override
        public void onStream(SdkPublisher<ByteBuffer> publisher) {
            if (state.get() == State.STARTED) {
                delegate.onStream(publisher);
            } else {
                publisher.subscribe(new org.reactivestreams.Subscriber<>() {
                    @Override
                    public void onSubscribe(org.reactivestreams.Subscription subscription) {
                        subscription.cancel();
                    }

                    @Override
                    public void onNext(ByteBuffer chunk) {}

                    @Override
                    public void onError(Throwable error) {}

                    @Override
                    public void onComplete() {}
                });
            }
        }

        @Override
        public void exceptionOccurred(Throwable error) {
            if (state.compareAndSet(State.WAITING, State.FAILED) || state.get() != State.ABANDONED) {
                delegate.exceptionOccurred(error);
            }
        }
    }
}
