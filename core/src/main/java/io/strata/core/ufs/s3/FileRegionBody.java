package io.strata.core.ufs.s3;

import org.reactivestreams.Subscriber;
import software.amazon.awssdk.core.async.AsyncRequestBody;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A request body that is a region of a local file (a staged file's upload part): for the SDK, its
 * own file body; for the CRT client, what it reads the file from as it sends ({@link
 * CrtReadsClient#uploadPart}), so no part is gathered into the heap first.
 */
final class FileRegionBody implements AsyncRequestBody {
    private final Path file;
    private final long position;
    private final long length;
    private final AsyncRequestBody sdk;

    FileRegionBody(Path file, long position, long length) {
        this.file = requireNonNull(file, "file is null");
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException("a region at " + position + " of " + length + " bytes");
        }
        this.position = position;
        this.length = length;
        this.sdk = AsyncRequestBody.fromFile(f -> f.path(file).position(position).numBytesToRead(length));
    }

    Path file() {
        return file;
    }

    long position() {
        return position;
    }

    long length() {
        return length;
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of(length);
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        sdk.subscribe(subscriber);
    }
}
