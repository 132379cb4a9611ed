package io.strata.core.ufs.s3;

import io.strata.core.concurrent.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.DelegatingS3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The Netty client, with GetObject (the data path), small PutObjects (small files' uploads) and
 * plain HeadObject, ListObjectsV2 and DeleteObject requests (stats, listings, removals) sent
 * through the CRT client ({@link CrtObjectClient}) instead.
 *
 * <p>The CRT client has no timeout for a response that never starts (its connection monitor
 * watches bodies, not the wait for a response head). So a GET whose response head has not arrived
 * within {@code firstByteTimeout} is abandoned (cancelled, its later callbacks ignored) and sent
 * again through Netty, whose timeouts and retries then apply, as they do to every other request;
 * likewise a PUT of at most {@value #CRT_PUT_LIMIT} bytes that has not been answered by then
 * (sending it again is harmless: the same bytes under the same key), and a HEAD, LIST or DELETE
 * likewise. Upload parts go through the CRT too, a staged file's read from the file as they are
 * sent ({@link FileRegionBody}), a streaming upload's from its buffer ({@link BufferBody}), with
 * as much more time as sending the part at {@value #SLOWEST_UPLOAD} bytes a second takes (the
 * answer comes after the body): through the SDK each part ran its Java pipeline on Netty
 * (docs/PERFORMANCE.md).
 *
 * <p>The CRT client is built on a thread of its own (loading its native library takes ~0.1 s)
 * while the Netty client is built: a request waits for the CRT client's build rather than take
 * the SDK's cold path (a mount's bucket check), and only if it cannot be built on this machine do
 * these requests go through Netty.
 */
final class CrtReadsClient extends DelegatingS3AsyncClient {
    private static final Logger log = LoggerFactory.getLogger(CrtReadsClient.class);

    /** The largest PUT sent through the CRT: its answer is due within the first-byte timeout. */
    static final int CRT_PUT_LIMIT = 1 << 20;
    /** The upload rate, in bytes a second, below which a part sent through the CRT goes to Netty. */
    static final int SLOWEST_UPLOAD = 1 << 20;

    private final CompletableFuture<CrtObjectClient> reads;
    /** Done once the CRT client's pool was opened, or could not be. */
    private final CompletableFuture<Void> pool = new CompletableFuture<>();
    private final boolean crtPuts;
    private final long firstByteTimeoutNanos;
    private final ScheduledThreadPoolExecutor watchdogs;
    private final AtomicLong crtGets = new AtomicLong();
    private final AtomicLong crtPutCount = new AtomicLong();
    private final AtomicLong crtPartCount = new AtomicLong();
    private final AtomicLong crtOthers = new AtomicLong();
    /** Cleared for good when a listing's body could not be read through the CRT client. */
    private volatile boolean crtListings = true;

    /**
     * @param reads builds the CRT client; it runs on a thread of its own
     * @param crtPuts whether small PUTs go through it too (they carry no checksum header there)
     */
    CrtReadsClient(S3AsyncClient control, Supplier<CrtObjectClient> reads, boolean crtPuts, Duration firstByteTimeout) {
        super(control);
        this.crtPuts = crtPuts;
        requireNonNull(reads, "reads is null");
        this.reads = new CompletableFuture<>();
        Thread builder = new Thread(() -> {
            CrtObjectClient built;
            try {
                built = reads.get();
                this.reads.complete(built);
            } catch (RuntimeException | Error e) {
                log.warn("the CRT S3 client is unavailable, object reads go through Netty: {}", e.toString());
                this.reads.completeExceptionally(e);
                this.pool.complete(null);
                return;
            }
            try {
                built.openPool(); // after the client is ready: the first requests need not wait for the pool's memory
            } catch (RuntimeException | Error e) {
                log.warn("the S3 client's buffer pool is unavailable, readahead parts are copied: {}", e.toString());
            } finally {
                this.pool.complete(null);
            }
        }, "strata-s3-crt-start");
        builder.setDaemon(true);
        builder.start();
        JvmShutdown.watch();
        this.firstByteTimeoutNanos = firstByteTimeout.toNanos();
        this.watchdogs = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("strata-s3-first-byte"));
        watchdogs.setRemoveOnCancelPolicy(true); // most GETs answer in time: their timers go at once
    }

    @Override
    public <T> CompletableFuture<T> getObject(GetObjectRequest request,
                                              AsyncResponseTransformer<GetObjectResponse, T> transformer) {
        CrtObjectClient client = readyCrtClient();
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

    @Override
    public CompletableFuture<PutObjectResponse> putObject(PutObjectRequest request, AsyncRequestBody body) {
        CrtObjectClient client = crtPuts ? readyCrtClient() : null;
        Long length = request.contentLength() != null ? request.contentLength() : body.contentLength().orElse(null);
        if (client == null || length == null || length > CRT_PUT_LIMIT) {
            return super.putObject(request, body);
        }
        CompletableFuture<ByteBuffer> bytes = body instanceof BufferBody buffer
                ? CompletableFuture.completedFuture(buffer.data()) : collect(body, length.intValue());
        return bytes.thenCompose(data -> answered(client, crtPutCount, firstByteTimeoutNanos,
                crt -> crt.putObject(request, data.duplicate()),
                () -> super.putObject(request, AsyncRequestBody.fromByteBufferUnsafe(data.duplicate()))));
    }

    @Override
    public CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, AsyncRequestBody body) {
        Function<CrtObjectClient, CompletableFuture<UploadPartResponse>> crtCall =
                body instanceof FileRegionBody region ? crt -> crt.uploadPart(request, region)
                : body instanceof BufferBody buffer ? crt -> crt.uploadPart(request, buffer.data())
                : null;
        CrtObjectClient client = crtPuts && crtCall != null ? readyCrtClient() : null;
        if (client == null) {
            return super.uploadPart(request, body);
        }
        long sending = TimeUnit.SECONDS.toNanos(1) * body.contentLength().orElseThrow() / SLOWEST_UPLOAD;
        return answered(client, crtPartCount, firstByteTimeoutNanos + sending, crtCall,
                () -> super.uploadPart(request, body));
    }

    @Override
    public CompletableFuture<HeadObjectResponse> headObject(HeadObjectRequest request) {
        boolean plain = request.equals(HeadObjectRequest.builder().bucket(request.bucket()).key(request.key()).build());
        return plain ? answered(crt -> crt.headObject(request), () -> super.headObject(request))
                : super.headObject(request);
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> deleteObject(DeleteObjectRequest request) {
        boolean plain = request.equals(DeleteObjectRequest.builder().bucket(request.bucket()).key(request.key()).build());
        return plain ? answered(crt -> crt.deleteObject(request), () -> super.deleteObject(request))
                : super.deleteObject(request);
    }

    @Override
    public CompletableFuture<ListObjectsV2Response> listObjectsV2(ListObjectsV2Request request) {
        boolean plain = request.equals(ListObjectsV2Request.builder().bucket(request.bucket()).prefix(request.prefix())
                .delimiter(request.delimiter()).maxKeys(request.maxKeys()).continuationToken(request.continuationToken())
                .startAfter(request.startAfter()).build());
        return plain && crtListings ? answered(crt -> crt.listObjectsV2(request), () -> super.listObjectsV2(request))
                : super.listObjectsV2(request);
    }

    /**
     * A request that may be sent twice (a stat, a listing page, a delete) through the CRT client
     * when it is ready, and through Netty when it is not.
     */
    private <R> CompletableFuture<R> answered(Function<CrtObjectClient, CompletableFuture<R>> crtCall,
                                              Supplier<CompletableFuture<R>> nettyCall) {
        CrtObjectClient client = readyCrtClient();
        return client == null ? nettyCall.get() : answered(client, crtOthers, firstByteTimeoutNanos, crtCall, nettyCall);
    }

    /**
     * Sends a request that may be sent twice through {@code client}, and through Netty instead
     * when the CRT has not answered within {@code timeoutNanos} (the answers are small, or a
     * PUT's acknowledgement: due whole by then); {@code sent} counts the CRT's requests.
     */
    private <R> CompletableFuture<R> answered(CrtObjectClient client, AtomicLong sent, long timeoutNanos,
                                              Function<CrtObjectClient, CompletableFuture<R>> crtCall,
                                              Supplier<CompletableFuture<R>> nettyCall) {
        sent.incrementAndGet();
        CompletableFuture<R> result = new CompletableFuture<>();
        CompletableFuture<R> crt = crtCall.apply(client);
        ScheduledFuture<?> watchdog = watchdogs.schedule(() -> {
            if (!crt.isDone()) {
                crt.cancel(true);
                nettyCall.get().whenComplete((value, error) -> settle(result, value, error));
            }
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        crt.whenComplete((value, error) -> {
            if (crt.isCancelled()) {
                return;
            }
            watchdog.cancel(false);
            if (S3Errors.unwrap(error) instanceof CrtObjectClient.UnreadBodyException unread) {
                if (crtListings) {
                    crtListings = false;
                    log.warn("listings go through Netty from now on: {}", unread.getMessage());
                }
                nettyCall.get().whenComplete((again, failure) -> settle(result, again, failure));
            } else {
                settle(result, value, error);
            }
        });
        return result;
    }

    /** The body's bytes, gathered into one buffer (one chunk, for a body made from a buffer). */
    private static CompletableFuture<ByteBuffer> collect(AsyncRequestBody body, int length) {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        CompletableFuture<ByteBuffer> done = new CompletableFuture<>();
        body.subscribe(new org.reactivestreams.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(org.reactivestreams.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer chunk) {
                if (chunk.remaining() > bytes.remaining()) {
                    done.completeExceptionally(new IllegalStateException("the body is longer than its " + length + " bytes"));
                    return;
                }
                bytes.put(chunk);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                done.complete(bytes.flip());
            }
        });
        return done;
    }

    /** Waits until the CRT client and its pool are built or failed to be; true if the client is there. For tests. */
    boolean awaitCrtClient() {
        pool.join();
        return reads.handle((built, failure) -> built != null).join();
    }

    /** GETs sent to the CRT client so far. For tests. */
    long crtGets() {
        return crtGets.get();
    }

    /** PUTs sent to the CRT client so far. For tests. */
    long crtPuts() {
        return crtPutCount.get();
    }

    /** Upload parts sent to the CRT client so far. For tests. */
    long crtParts() {
        return crtPartCount.get();
    }

    /** HEAD, LIST and DELETE requests sent to the CRT client so far. For tests. */
    long crtOthers() {
        return crtOthers.get();
    }

    /**
     * The CRT client, waited for while it is being built (~0.1 s, at a mount's first requests:
     * less than the first request through the SDK's cold pipeline costs); null if it could not be
     * built, is not built within {@link #CRT_BUILD_WAIT}, or the JVM is shutting down.
     */
    private CrtObjectClient readyCrtClient() {
        if (JvmShutdown.started()) {
            return null;
        }
        if (!reads.isDone()) {
            try {
                return reads.get(CRT_BUILD_WAIT.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (ExecutionException | TimeoutException e) {
                return null;
            }
        }
        return reads.isCompletedExceptionally() ? null : reads.join();
    }

    /** How long a request waits for the CRT client being built before it goes through Netty. */
    private static final Duration CRT_BUILD_WAIT = Duration.ofSeconds(2);

    /**
     * Whether the JVM is shutting down. The CRT's own shutdown hook then stops its native threads
     * from calling back into Java, so a request it is sent never completes: a client closed from a
     * shutdown hook (Hadoop's FileSystem cache, Spark's exit, a mount's SIGTERM) would wait out the
     * first-byte timeout for each one, 20 s for the session's last marker PUT. Netty answers then.
     */
    private static final class JvmShutdown {
        private static volatile boolean started;

        static {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> started = true, "strata-s3-crt-shutdown"));
            } catch (IllegalStateException alreadyShuttingDown) {
                started = true;
            }
        }

        /** Registers the hook, once: called as a client is made, long before any shutdown. */
        static void watch() {}

        static boolean started() {
            return started;
        }
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
            CrtObjectClient client = reads.handle((built, failure) -> built).join(); // waits for a build in progress
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
