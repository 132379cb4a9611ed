package io.strata.core.ufs.s3;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.crt.CRT;
import software.amazon.awssdk.crt.http.HttpHeader;
import software.amazon.awssdk.crt.s3.S3BorrowedBuffer;
import software.amazon.awssdk.crt.s3.S3BorrowedBufferDelivery;
import software.amazon.awssdk.crt.s3.S3FinishedResponseContext;
import software.amazon.awssdk.crt.s3.S3MetaRequestResponseHandler;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.utils.async.SimplePublisher;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * One GET's callbacks, in the transformer's terms: the response and its publisher once a 2xx
 * head arrives, its body chunks, then the end, or the failure. A {@link ChunkCopying} transformer
 * gets each chunk as it is (and its subscriber may keep it, {@link ChunkKeeping}), any other a copy.
 *
 * <p>A body received into the client's buffer pool arrives lent ({@link S3BorrowedBuffer}): its
 * slot goes back to the pool when the lease is closed, and until then no other GET can use it. A
 * subscriber may keep a lent chunk only when it fills a whole slot ({@code lendable} bytes, a
 * readahead part): the readahead's budget then bounds the slots kept (its parts, whole parts in
 * it), and the pool, sized for them and two more, always has a slot for a GET in flight. Any
 * other lent chunk is passed on as a chunk and given back at once.
 */
final class CrtGetResponse<T> implements S3MetaRequestResponseHandler, S3BorrowedBufferDelivery {
    private final AsyncResponseTransformer<GetObjectResponse, T> transformer;
    private final boolean inline;
    private final int lendable;
    private final LentSlots slots;
    private Body body;

    CrtGetResponse(AsyncResponseTransformer<GetObjectResponse, T> transformer, boolean inline, int lendable,
                   LentSlots slots) {
        this.transformer = transformer;
        this.inline = inline;
        this.lendable = lendable;
        this.slots = slots;
    }

    @Override
    public void onResponseHeaders(int status, HttpHeader[] headers) {
        if (status / 100 != 2 || body != null) {
            return; // an error's head: onFinished reports it, with its body
        }
        GetObjectResponse.Builder response = GetObjectResponse.builder();
        for (HttpHeader header : headers) {
            switch (header.getName().toLowerCase(Locale.ROOT)) {
                case "etag" -> response.eTag(header.getValue());
                case "content-length" -> response.contentLength(Long.parseLong(header.getValue()));
                case "content-range" -> response.contentRange(header.getValue());
                default -> { }
            }
        }
        transformer.onResponse(response.build());
        body = inline ? new InlineBody() : new CopiedBody();
        transformer.onStream(body.publisher());
    }

    @Override
    public int onResponseBody(ByteBuffer chunk, long start, long end) {
        int length = chunk.remaining();
        body.send(chunk);
        return length;
    }

    @Override
    public int onResponseBodyBorrowed(S3BorrowedBuffer borrowed, long start, long end) {
        ByteBuffer chunk = borrowed.asByteBuffer();
        int length = chunk.remaining();
        LentSlots.Lease lease = slots.lend(borrowed::close);
        boolean kept = false;
        try {
            kept = length == lendable && body.lend(chunk, lease::close);
            if (!kept) {
                body.send(chunk);
            }
        } finally {
            if (!kept) {
                lease.close();
            }
        }
        return length;
    }

    @Override
    public void onFinished(S3FinishedResponseContext context) {
        if (context.getErrorCode() == CRT.AWS_CRT_SUCCESS) {
            body.complete();
            return;
        }
        Throwable failure = CrtObjectClient.failureOf(context, "GET");
        if (body != null) {
            body.error(failure);
        } else {
            transformer.exceptionOccurred(failure);
        }
    }

    /** A response body as the transformer subscribes to it. */
    private interface Body {
        SdkPublisher<ByteBuffer> publisher();

        /** Passes on a chunk the CRT owns again once this returns. */
        void send(ByteBuffer chunk);

        /** Hands over a chunk in the pool's memory with what gives it back; false to have it sent instead. */
        default boolean lend(ByteBuffer chunk, Runnable giveBack) {
            return false;
        }

        void complete();

        void error(Throwable failure);
    }

    /** Each chunk copied and queued, for any subscriber. */
    private static final class CopiedBody implements Body {
        private final SimplePublisher<ByteBuffer> queue = new SimplePublisher<>();

        @Override
        public SdkPublisher<ByteBuffer> publisher() {
            return SdkPublisher.adapt(queue);
        }

        @Override
        public void send(ByteBuffer chunk) {
            ByteBuffer copy = ByteBuffer.allocate(chunk.remaining());
            copy.put(chunk).flip();
            queue.send(copy);
        }

        @Override
        public void complete() {
            queue.complete();
        }

        @Override
        public void error(Throwable failure) {
            queue.error(failure);
        }
    }

    /**
     * Each chunk handed to the subscriber during the CRT's callback, as a read-only view: only for
     * {@link ChunkCopying} transformers, whose subscriber asks for everything and copies in onNext.
     * The CRT calls back for one GET from one thread at a time.
     */
    private static final class InlineBody implements Body, SdkPublisher<ByteBuffer> {
        private volatile Subscriber<? super ByteBuffer> subscriber;
        private volatile boolean cancelled;

        @Override
        public SdkPublisher<ByteBuffer> publisher() {
            return this;
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> s) {
            subscriber = s;
            s.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {
                    cancelled = true;
                }
            });
        }

        /**
         * A chunk on the heap is an array the CRT's Java binding made for this callback alone (it
         * copies each body out of its native buffer into a new array, which nothing touches after
         * the callback: {@code CrtRequestsTest} checks it), so a {@link ChunkKeeping} subscriber
         * may keep it; any other gets a read-only view to copy from.
         */
        @Override
        public void send(ByteBuffer chunk) {
            if (subscriber == null) {
                throw new IllegalStateException("a ChunkCopying transformer did not subscribe in onStream");
            }
            if (!cancelled && !(chunk.hasArray() && subscriber instanceof ChunkKeeping keeping && keeping.keep(chunk))) {
                subscriber.onNext(chunk.asReadOnlyBuffer());
            }
        }

        @Override
        public boolean lend(ByteBuffer chunk, Runnable giveBack) {
            return !cancelled && subscriber instanceof ChunkKeeping keeping && keeping.keepLent(chunk, giveBack);
        }

        @Override
        public void complete() {
            if (!cancelled) {
                subscriber.onComplete();
            }
        }

        @Override
        public void error(Throwable failure) {
            if (!cancelled) {
                subscriber.onError(failure);
            }
        }
    }
}
