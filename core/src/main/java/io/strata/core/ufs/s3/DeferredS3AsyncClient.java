package io.strata.core.ufs.s3;

import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * An {@link S3AsyncClient} built at the first request sent to it, on a thread of its own. Behind
 * {@link CrtReadsClient} this is the Netty client, which a session whose requests all go through
 * the CRT (reads, small writes, stats, listings, deletes) never needs: a mount then does not pay
 * for building it (the SDK's builder, Netty's event loops and their classes, about 0.1 s of CPU
 * on a start that is CPU-bound). The first multipart upload or copy waits for the build instead;
 * the caller's thread does not, the request is sent when the client is there.
 *
 * <p>Only the requests Strata sends are forwarded (the under storage and {@code strata objbench});
 * any other is refused by the interface's own default, {@link UnsupportedOperationException}, as
 * a request this client was never asked to carry.
 */
final class DeferredS3AsyncClient implements S3AsyncClient {
    private final Supplier<S3AsyncClient> factory;
    /** Null until the first request; then the build, done or under way. Guarded by this. */
    private CompletableFuture<S3AsyncClient> built;
    private boolean closed;

    DeferredS3AsyncClient(Supplier<S3AsyncClient> factory) {
        this.factory = requireNonNull(factory, "factory is null");
    }

    private <R> CompletableFuture<R> send(Function<S3AsyncClient, CompletableFuture<R>> request) {
        CompletableFuture<S3AsyncClient> client = client();
        // Once built, straight to the client, so that cancelling the answer cancels the request.
        return client.isDone() && !client.isCompletedExceptionally() ? request.apply(client.join())
                : client.thenCompose(request);
    }

    private synchronized CompletableFuture<S3AsyncClient> client() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("the S3 client is closed"));
        }
        if (built == null) {
            built = new CompletableFuture<>();
            Thread builder = new Thread(() -> {
                try {
                    built.complete(factory.get());
                } catch (RuntimeException | Error e) {
                    built.completeExceptionally(e);
                }
            }, "strata-s3-netty-start");
            builder.setDaemon(true);
            builder.start();
        }
        return built;
    }

    /** Whether the client has been built (or its build begun). For tests. */
    synchronized boolean started() {
        return built != null;
    }

    @Override
    public <T> CompletableFuture<T> getObject(GetObjectRequest request,
                                              AsyncResponseTransformer<GetObjectResponse, T> transformer) {
        return send(client -> client.getObject(request, transformer));
    }

    @Override
    public CompletableFuture<PutObjectResponse> putObject(PutObjectRequest request, AsyncRequestBody body) {
        return send(client -> client.putObject(request, body));
    }

    @Override
    public CompletableFuture<HeadObjectResponse> headObject(HeadObjectRequest request) {
        return send(client -> client.headObject(request));
    }

    @Override
    public CompletableFuture<HeadBucketResponse> headBucket(HeadBucketRequest request) {
        return send(client -> client.headBucket(request));
    }

    @Override
    public CompletableFuture<ListObjectsV2Response> listObjectsV2(ListObjectsV2Request request) {
        return send(client -> client.listObjectsV2(request));
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> deleteObject(DeleteObjectRequest request) {
        return send(client -> client.deleteObject(request));
    }

    @Override
    public CompletableFuture<CopyObjectResponse> copyObject(CopyObjectRequest request) {
        return send(client -> client.copyObject(request));
    }

    @Override
    public CompletableFuture<CreateMultipartUploadResponse> createMultipartUpload(CreateMultipartUploadRequest request) {
        return send(client -> client.createMultipartUpload(request));
    }

    @Override
    public CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, AsyncRequestBody body) {
        return send(client -> client.uploadPart(request, body));
    }

    @Override
    public CompletableFuture<UploadPartCopyResponse> uploadPartCopy(UploadPartCopyRequest request) {
        return send(client -> client.uploadPartCopy(request));
    }

    @Override
    public CompletableFuture<CompleteMultipartUploadResponse> completeMultipartUpload(
            CompleteMultipartUploadRequest request) {
        return send(client -> client.completeMultipartUpload(request));
    }

    @Override
    public CompletableFuture<AbortMultipartUploadResponse> abortMultipartUpload(AbortMultipartUploadRequest request) {
        return send(client -> client.abortMultipartUpload(request));
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    /** Closes the client if it was built, after waiting for a build under way. */
    @Override
    public void close() {
        CompletableFuture<S3AsyncClient> client;
        synchronized (this) {
            closed = true;
            client = built;
        }
        if (client != null) {
            S3AsyncClient done = client.handle((value, failure) -> value).join();
            if (done != null) {
                done.close();
            }
        }
    }
}
