package io.strata.core.ufs.s3;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.readahead.FetchedRange;
import software.amazon.awssdk.core.FileTransformerConfiguration;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import static java.util.Objects.requireNonNull;

/**
 * The S3 requests the under storage makes, on one bucket: each an SDK call, blocking ones
 * translated by {@link S3Errors}, async ones returning the SDK's future.
 *
 * <p>ETags are kept without their quotes. Reads that must come from one version of an object
 * (ranged reads, staging fetches, copies) are conditional on its ETag, so a replaced object fails
 * the read rather than mixing bytes of two versions.
 */
final class S3Objects {
    /** S3's limit on one CopyObject; larger objects are copied part by part. */
    static final long MAX_SINGLE_COPY = 5L << 30;
    private static final int COPY_CONCURRENCY = 8;

    private final S3AsyncClient client;
    private final String bucket;
    private final long multipartCopyThreshold;
    private final long copyPartSize;

    S3Objects(S3AsyncClient client, String bucket, long multipartCopyThreshold, long copyPartSize) {
        this.client = requireNonNull(client, "client is null");
        this.bucket = requireNonNull(bucket, "bucket is null");
        this.multipartCopyThreshold = multipartCopyThreshold;
        this.copyPartSize = copyPartSize;
    }

    String bucket() {
        return bucket;
    }

    /** The object's metadata, or empty if there is no object with this exact key. */
    CompletableFuture<Optional<HeadObjectResponse>> headAsync(String key) {
        return client.headObject(b -> b.bucket(bucket).key(key)).handle((response, failure) -> {
            if (failure == null) {
                return Optional.of(response);
            }
            if (S3Errors.isNotFound(failure)) {
                return Optional.empty();
            }
            throw new java.util.concurrent.CompletionException(S3Errors.unwrap(failure));
        });
    }

    Optional<HeadObjectResponse> head(String key, String what) throws IOException {
        return S3Errors.join(headAsync(key), what);
    }

    /** One page of a listing; {@code delimiter} null for a recursive listing. */
    CompletableFuture<ListObjectsV2Response> listAsync(String prefix, String delimiter, String token, int maxKeys) {
        ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix)
                .maxKeys(maxKeys);
        if (delimiter != null) {
            request.delimiter(delimiter);
        }
        if (token != null) {
            request.continuationToken(token);
        }
        return client.listObjectsV2(request.build());
    }

    /** One page of a recursive listing of {@code prefix}: the keys after {@code startAfter}. */
    CompletableFuture<ListObjectsV2Response> listAfterAsync(String prefix, String startAfter, int maxKeys) {
        return client.listObjectsV2(ListObjectsV2Request.builder().bucket(bucket).prefix(prefix)
                .startAfter(startAfter).maxKeys(maxKeys).build());
    }

    /** Whether any key starts with {@code prefix}, other than {@code except} (null: none excepted). */
    CompletableFuture<Boolean> anyKeyAsync(String prefix, String except) {
        return listAsync(prefix, null, null, 2).thenApply(page -> page.contents().stream()
                .anyMatch(object -> !object.key().equals(except)));
    }

    /**
     * {@code length} bytes at {@code offset} of the object's version {@code etag}, fewer only at its
     * end, for the readahead engine's fetcher: completes with the bytes in blocks of
     * {@code blockSize}, or fails with the IOException (FsException) the read reports. The SDK retries a broken transfer as a whole; a
     * short body is an error, never a short read. Cancelling the returned future aborts the GET
     * (bytes that arrive anyway are released: nobody will read them).
     */
    CompletableFuture<FetchedRange> readRangeAsync(String key, String etag, long offset, int length, int blockSize,
                                                   String what) {
        CompletableFuture<FetchedRange> get = getRange(key, etag, offset, length, blockSize);
        CompletableFuture<FetchedRange> result = new CompletableFuture<>();
        get.whenComplete((data, failure) -> {
            if (failure == null) {
                if (!result.complete(data)) {
                    data.release();
                }
            } else {
                result.completeExceptionally(S3Errors.translate(failure, what));
            }
        });
        result.whenComplete((data, failure) -> {
            if (result.isCancelled()) {
                get.cancel(true);
            }
        });
        return result;
    }

    /** One conditional ranged GET, received into a range of its length ({@link RangeBody}). */
    private CompletableFuture<FetchedRange> getRange(String key, String etag, long offset, int length,
                                                     int blockSize) {
        if (length <= 0) {
            return CompletableFuture.completedFuture(FetchedRange.allocate(offset, 0, blockSize));
        }
        String range = "bytes=" + offset + "-" + (offset + length - 1);
        return client.getObject(b -> b.bucket(bucket).key(key).range(range).ifMatch(quoted(etag)),
                new RangeBody(offset, length, blockSize));
    }

    /** Downloads the object's version {@code etag} into {@code file} (replacing it); returns its length. */
    long download(String key, String etag, Path file, String what) throws IOException {
        S3Errors.join(client.getObject(b -> b.bucket(bucket).key(key).ifMatch(quoted(etag)),
                AsyncResponseTransformer.toFile(file, FileTransformerConfiguration.defaultCreateOrReplaceExisting())),
                what);
        return Files.size(file);
    }

    /** Writes a whole object from memory, the buffer untouched until it returns; returns its ETag. */
    String put(String key, ByteBuffer data, String what) throws IOException {
        long length = data.remaining();
        return etag(S3Errors.join(client.putObject(b -> b.bucket(bucket).key(key).contentLength(length),
                new BufferBody(data)), what).eTag());
    }

    /** Writes a whole object from a local file; returns its ETag. */
    String putFile(String key, Path file, String what) throws IOException {
        long length = Files.size(file);
        return etag(S3Errors.join(client.putObject(b -> b.bucket(bucket).key(key).contentLength(length),
                AsyncRequestBody.fromFile(file)), what).eTag());
    }

    CompletableFuture<String> createMultipartUpload(String key) {
        return client.createMultipartUpload(b -> b.bucket(bucket).key(key)).thenApply(r -> r.uploadId());
    }

    /** Uploads one part from memory; the buffer must stay untouched until the future completes. */
    CompletableFuture<CompletedPart> uploadPart(String key, String uploadId, int partNumber, ByteBuffer data) {
        long length = data.remaining();
        return client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber)
                                .contentLength(length), new BufferBody(data))
                .thenApply(r -> CompletedPart.builder().partNumber(partNumber).eTag(r.eTag()).build());
    }

    /** Uploads one part from a range of a local file. */
    CompletableFuture<CompletedPart> uploadPart(String key, String uploadId, int partNumber, Path file,
                                                long position, long length) {
        return client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber)
                                .contentLength(length),
                        new FileRegionBody(file, position, length))
                .thenApply(r -> CompletedPart.builder().partNumber(partNumber).eTag(r.eTag()).build());
    }

    /** Completes an upload from its parts (in part-number order); returns the object's ETag. */
    String completeMultipartUpload(String key, String uploadId, List<CompletedPart> parts, String what)
            throws IOException {
        return etag(S3Errors.join(client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(parts))), what).eTag());
    }

    /** Abandons an upload; best effort (a lifecycle rule cleans up what this misses). */
    CompletableFuture<Void> abortMultipartUpload(String key, String uploadId) {
        return client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId))
                .handle((r, failure) -> null);
    }

    /**
     * Server-side copy of the source's version {@code etag} to {@code dstKey}: one CopyObject up to
     * 5 GiB, UploadPartCopy parts beyond. Returns the new object's ETag.
     */
    String copy(String srcKey, String etag, long size, String dstKey, String what) throws IOException {
        if (size <= multipartCopyThreshold) {
            return S3Errors.join(copyAsync(srcKey, etag, dstKey), what);
        }
        return multipartCopy(srcKey, etag, size, dstKey, what);
    }

    /** One CopyObject (up to 5 GiB) of the source's version {@code etag}; completes with the new ETag. */
    CompletableFuture<String> copyAsync(String srcKey, String etag, String dstKey) {
        return client.copyObject(b -> b.sourceBucket(bucket).sourceKey(srcKey).copySourceIfMatch(quoted(etag))
                .destinationBucket(bucket).destinationKey(dstKey)).thenApply(r -> etag(r.copyObjectResult().eTag()));
    }

    private String multipartCopy(String srcKey, String etag, long size, String dstKey, String what)
            throws IOException {
        long partSize = Math.max(copyPartSize, (size + PartSizes.MAX_PARTS - 1) / PartSizes.MAX_PARTS);
        int partCount = (int) ((size + partSize - 1) / partSize);
        String uploadId = S3Errors.join(createMultipartUpload(dstKey), what);
        Semaphore slots = new Semaphore(COPY_CONCURRENCY);
        List<CompletableFuture<CompletedPart>> parts = new ArrayList<>(partCount);
        try {
            for (int i = 0; i < partCount; i++) {
                int partNumber = i + 1;
                long first = i * partSize;
                long last = Math.min(size, first + partSize) - 1;
                slots.acquireUninterruptibly();
                CompletableFuture<CompletedPart> part = client.uploadPartCopy(b -> b.sourceBucket(bucket)
                                .sourceKey(srcKey).copySourceIfMatch(quoted(etag)).copySourceRange(
                                        "bytes=" + first + "-" + last)
                                .destinationBucket(bucket).destinationKey(dstKey).uploadId(uploadId)
                                .partNumber(partNumber))
                        .thenApply(r -> CompletedPart.builder().partNumber(partNumber)
                                .eTag(r.copyPartResult().eTag()).build());
                part.whenComplete((r, failure) -> slots.release());
                parts.add(part);
            }
            List<CompletedPart> done = new ArrayList<>(partCount);
            for (CompletableFuture<CompletedPart> part : parts) {
                done.add(S3Errors.join(part, what));
            }
            return completeMultipartUpload(dstKey, uploadId, done, what);
        } catch (IOException | RuntimeException e) {
            parts.forEach(part -> part.cancel(true));
            abortMultipartUpload(dstKey, uploadId);
            throw e;
        }
    }

    CompletableFuture<Void> deleteAsync(String key) {
        return client.deleteObject(b -> b.bucket(bucket).key(key)).thenApply(r -> null);
    }

    void delete(String key, String what) throws IOException {
        S3Errors.join(deleteAsync(key), what);
    }

    /** Writes an empty object (a directory marker). */
    void putEmpty(String key, String what) throws IOException {
        S3Errors.join(client.putObject(b -> b.bucket(bucket).key(key).contentLength(0L),
                AsyncRequestBody.empty()), what);
    }

    /** An ETag without the quotes S3 puts around it. */
    static String etag(String raw) {
        if (raw == null) {
            return null;
        }
        String etag = raw.startsWith("W/") ? raw.substring(2) : raw;
        if (etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")) {
            etag = etag.substring(1, etag.length() - 1);
        }
        return etag;
    }

    private static String quoted(String etag) {
        return "\"" + etag + "\"";
    }
}
