package io.strata.core.ufs.s3;

import io.strata.core.readahead.FetchedRange;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * The body of a ranged GET, received straight into a {@link FetchedRange} of the response's
 * Content-Length, in blocks on the file's block grid (one copy, where the SDK's {@code toBytes()}
 * grows a stream and copies it again). Each attempt of the SDK's retries starts over in a fresh
 * range. A body longer than the range asked for (a
 * store ignoring the Range header) or shorter than its Content-Length fails the attempt, as a
 * client error the SDK retries like a broken connection.
 */
final class RangeBody implements AsyncResponseTransformer<GetObjectResponse, FetchedRange>, ChunkCopying {
    private final long offset;
    private final int maxLength;
    private final int blockSize;
    private volatile CompletableFuture<FetchedRange> result;
    private volatile GetObjectResponse response;

    RangeBody(long offset, int maxLength, int blockSize) {
        this.offset = offset;
        this.maxLength = maxLength;
        this.blockSize = blockSize;
    }

    /** The collector copies each chunk into the range as it arrives, and asks for the whole body. */
    @Override
    public boolean copiesChunks() {
        return true;
    }

    @Override
    public CompletableFuture<FetchedRange> prepare() {
        result = new CompletableFuture<>();
        response = null;
        return result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        this.response = response;
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        CompletableFuture<FetchedRange> attempt = result;
        Long contentLength = response == null ? null : response.contentLength();
        if (contentLength != null && contentLength > maxLength) {
            attempt.completeExceptionally(SdkClientException.create("asked for " + maxLength + " bytes, the"
                    + " response has " + contentLength + " (the store ignored the range)"));
            publisher.subscribe(new Discard());
            return;
        }
        int capacity = contentLength != null ? contentLength.intValue() : maxLength;
        publisher.subscribe(new Collector(FetchedRange.allocate(offset, capacity, blockSize), contentLength != null,
                attempt));
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        CompletableFuture<FetchedRange> attempt = result;
        if (attempt != null) {
            attempt.completeExceptionally(error);
        }
    }

    /** A broken transfer, with an IOException cause so the SDK retries it as it retries a reset connection. */
    private static SdkClientException failure(String message) {
        return SdkClientException.builder().message(message).cause(new java.io.IOException(message)).build();
    }

    /** Copies the body's chunks into the range, or keeps a whole body handed over in one chunk. */
    private static final class Collector implements Subscriber<ByteBuffer>, ChunkKeeping {
        private final FetchedRange target;
        private final boolean exact;
        private final CompletableFuture<FetchedRange> attempt;
        private Subscription subscription;

        Collector(FetchedRange target, boolean exact, CompletableFuture<FetchedRange> attempt) {
            this.target = target;
            this.exact = exact;
            this.attempt = attempt;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public boolean keep(ByteBuffer chunk) {
            return target.adopt(chunk);
        }

        @Override
        public boolean keepLent(ByteBuffer chunk, Runnable giveBack) {
            return target.adopt(chunk, giveBack);
        }

        @Override
        public void onNext(ByteBuffer chunk) {
            if (!target.put(chunk)) {
                subscription.cancel();
                fail(failure("the response body is longer than " + target.capacity() + " bytes"));
            }
        }

        @Override
        public void onError(Throwable error) {
            fail(error);
        }

        @Override
        public void onComplete() {
            if (exact && !target.full()) {
                fail(failure("received " + target.length() + " of " + target.capacity() + " bytes"));
            } else if (!attempt.complete(target)) {
                target.release(); // the attempt ended before its body did (cancelled): nobody reads it
            }
        }

        /** Ends the attempt with {@code error}; the range goes, with the memory it may hold. */
        private void fail(Throwable error) {
            attempt.completeExceptionally(error);
            target.release();
        }
    }

    /** Refuses a body that is not wanted. */
    private static final class Discard implements Subscriber<ByteBuffer> {
        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.cancel();
        }

        @Override
        public void onNext(ByteBuffer chunk) {}

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onComplete() {}
    }
}
