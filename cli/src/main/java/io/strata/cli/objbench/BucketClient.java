package io.strata.cli.objbench;

import io.strata.core.conf.Options;
import io.strata.core.ufs.s3.S3Clients;
import io.strata.core.ufs.s3.S3Errors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Blocking object operations on one bucket through the S3 client a Strata mount would build from
 * the same options ({@link S3Clients}), so the benchmark sees its endpoint, signing, checksums,
 * timeouts and retries. Failures are IOExceptions worded by {@link S3Errors}; the S3 error stays
 * their cause, for {@link #isNotFound} and {@link #isNotImplemented}.
 */
public final class BucketClient implements AutoCloseable {
    private final S3AsyncClient client;
    private final String bucket;

    BucketClient(S3AsyncClient client, String bucket) {
        this.client = requireNonNull(client, "client is null");
        this.bucket = requireNonNull(bucket, "bucket is null");
    }

    /** A client of {@code bucket} built from Strata's S3 options; credentials as a mount finds them. */
    public static BucketClient open(String bucket, Options options) {
        return new BucketClient(S3Clients.create(options), bucket);
    }

    public String bucket() {
        return bucket;
    }

    /** HeadBucket: whether the bucket is there and these credentials may reach it. */
    public void checkBucket() throws IOException {
        join(client.headBucket(b -> b.bucket(bucket)), "HEAD bucket " + bucket);
    }

    void put(String key, ByteBuffer data) throws IOException {
        // Unsafe: the SDK reads the caller's buffer instead of copying it; nobody writes to it meanwhile.
        join(client.putObject(b -> b.bucket(bucket).key(key), AsyncRequestBody.fromByteBufferUnsafe(data)),
                "PUT " + key);
    }

    void put(String key, byte[] data) throws IOException {
        put(key, ByteBuffer.wrap(data));
    }

    byte[] get(String key) throws IOException {
        return join(client.getObject(b -> b.bucket(bucket).key(key), AsyncResponseTransformer.toBytes()),
                "GET " + key).asByteArray();
    }

    /** The bytes from {@code offset}, {@code length} of them (fewer at the end of the object). */
    byte[] get(String key, long offset, int length) throws IOException {
        String range = "bytes=" + offset + "-" + (offset + length - 1);
        return join(client.getObject(b -> b.bucket(bucket).key(key).range(range), AsyncResponseTransformer.toBytes()),
                "GET " + key + " " + range).asByteArray();
    }

    /** The object's size from HEAD, or empty when there is no such object. */
    Optional<Long> size(String key) throws IOException {
        try {
            return Optional.of(join(client.headObject(b -> b.bucket(bucket).key(key)), "HEAD " + key).contentLength());
        } catch (IOException e) {
            if (isNotFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    void delete(String key) throws IOException {
        join(client.deleteObject(b -> b.bucket(bucket).key(key)), "DELETE " + key);
    }

    /** One page of ListObjectsV2; {@code delimiter} and {@code token} may be null. */
    ListObjectsV2Response list(String prefix, String delimiter, int maxKeys, String token) throws IOException {
        return join(client.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).delimiter(delimiter).maxKeys(maxKeys)
                .continuationToken(token)), "LIST " + prefix);
    }

    /** Every key under {@code prefix}, page by page. */
    List<String> keys(String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Response page = list(prefix, null, 1000, token);
            page.contents().stream().map(S3Object::key).forEach(keys::add);
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return keys;
    }

    String createMultipartUpload(String key) throws IOException {
        return join(client.createMultipartUpload(b -> b.bucket(bucket).key(key)), "CreateMultipartUpload " + key)
                .uploadId();
    }

    CompletedPart uploadPart(String key, String uploadId, int partNumber, byte[] data) throws IOException {
        String etag = join(client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber)
                        .contentLength((long) data.length), AsyncRequestBody.fromBytes(data)),
                "UploadPart " + partNumber + " of " + key).eTag();
        return CompletedPart.builder().partNumber(partNumber).eTag(etag).build();
    }

    void completeMultipartUpload(String key, String uploadId, List<CompletedPart> parts) throws IOException {
        join(client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(parts))), "CompleteMultipartUpload " + key);
    }

    void abortMultipartUpload(String key, String uploadId) throws IOException {
        join(client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)),
                "AbortMultipartUpload " + key);
    }

    /** Whether S3 answered 404 (NoSuchKey, NoSuchBucket, or a HEAD's bare status). */
    public static boolean isNotFound(Throwable failure) {
        return serviceError(failure).map(e -> e.statusCode() == 404).orElse(false);
    }

    /** Whether S3 answered 403 (AccessDenied, a bad key or signature, or a HEAD's bare status). */
    public static boolean isAccessDenied(Throwable failure) {
        return serviceError(failure).map(e -> e.statusCode() == 403).orElse(false);
    }

    /** Whether the store said it does not implement the request (501 NotImplemented). */
    static boolean isNotImplemented(Throwable failure) {
        return serviceError(failure).map(e -> e.statusCode() == 501 || (e.awsErrorDetails() != null
                && "NotImplemented".equals(e.awsErrorDetails().errorCode()))).orElse(false);
    }

    private static Optional<AwsServiceException> serviceError(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof AwsServiceException service) {
                return Optional.of(service);
            }
        }
        return Optional.empty();
    }

    private static <T> T join(CompletableFuture<T> future, String what) throws IOException {
        return S3Errors.join(future, what);
    }

    @Override
    public void close() {
        client.close();
    }
}
