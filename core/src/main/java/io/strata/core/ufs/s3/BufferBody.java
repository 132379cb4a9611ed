package io.strata.core.ufs.s3;

import org.reactivestreams.Subscriber;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.nio.ByteBuffer;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A request body that is a buffer its owner keeps untouched until the request completes (a
 * streaming upload's part, or a small object written whole): for the SDK, its body over the
 * buffer, unsafe and uncopied; for the CRT client, the buffer itself ({@link CrtReadsClient#putObject},
 * {@link CrtReadsClient#uploadPart}), so it is not copied first.
 */
final class BufferBody implements AsyncRequestBody {
    private final ByteBuffer data;
    private final AsyncRequestBody sdk;

    BufferBody(ByteBuffer data) {
        this.data = requireNonNull(data, "data is null").duplicate();
        this.sdk = AsyncRequestBody.fromByteBufferUnsafe(this.data.duplicate());
    }

    /** The bytes, as a view of their own. */
    ByteBuffer data() {
        return data.duplicate();
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of((long) data.remaining());
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        sdk.subscribe(subscriber);
    }
}
