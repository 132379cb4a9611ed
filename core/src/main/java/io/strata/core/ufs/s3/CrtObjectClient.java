package io.strata.core.ufs.s3;

import io.strata.core.conf.Options;
import io.strata.core.readahead.ReadaheadConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.crt.CRT;
import software.amazon.awssdk.crt.auth.credentials.Credentials;
import software.amazon.awssdk.crt.auth.credentials.CredentialsProvider;
import software.amazon.awssdk.crt.auth.credentials.DelegateCredentialsProvider;
import software.amazon.awssdk.crt.auth.signing.AwsSigningConfig;
import software.amazon.awssdk.crt.http.HttpHeader;
import software.amazon.awssdk.crt.http.HttpMonitoringOptions;
import software.amazon.awssdk.crt.http.HttpRequest;
import software.amazon.awssdk.crt.http.HttpRequestBodyStream;
import software.amazon.awssdk.crt.io.ClientBootstrap;
import software.amazon.awssdk.crt.io.EventLoopGroup;
import software.amazon.awssdk.crt.io.ExponentialBackoffRetryOptions;
import software.amazon.awssdk.crt.io.HostResolver;
import software.amazon.awssdk.crt.io.StandardRetryOptions;
import software.amazon.awssdk.crt.io.TlsContext;
import software.amazon.awssdk.crt.s3.S3Client;
import software.amazon.awssdk.crt.s3.S3ClientOptions;
import software.amazon.awssdk.crt.s3.S3DirectBufferPoolOptions;
import software.amazon.awssdk.crt.s3.S3FinishedResponseContext;
import software.amazon.awssdk.crt.s3.S3MetaRequest;
import software.amazon.awssdk.crt.s3.S3MetaRequestOptions;
import software.amazon.awssdk.crt.s3.S3MetaRequestResponseHandler;
import software.amazon.awssdk.regions.Region;
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
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static java.util.Objects.requireNonNull;

/**
 * GetObject and PutObject sent by the AWS Common Runtime's S3 client itself: native HTTP, signing
 * and retries, one request each, and none of the SDK's Java request pipeline around them.
 *
 * <p>Why: on two cores a fresh JVM spends most of its first seconds compiling, and every request
 * through the SDK runs a deep pipeline of interceptors, stages and futures that the JIT has yet to
 * compile. Measured from a fresh JVM against one MinIO on loopback, 2 threads, 128 KiB objects: a
 * GET took 8.1 ms through the SDK (on the CRT HTTP client) and 2.2-2.5 ms sent this way; JuiceFS's
 * Go client 1.9 ms; a 128 KiB PUT 16.1 ms through the SDK (on Netty), 7.3 ms this way, 5.8 ms from Go
 * (docs/PERFORMANCE.md). PUTs, stats, listings and deletes are sent as they are given (the CRT's
 * {@code DEFAULT} meta request).
 *
 * <p>A GET longer than 1 MiB is a {@code GET_OBJECT} meta request instead. A {@code DEFAULT} one
 * collects its body in a buffer that grows from 1 KiB by doubling, so each 8 MiB readahead part
 * was copied twice more, into freshly faulted memory, before Java saw it: a third of the CRT's
 * event loop in a cold read of 1 GiB. A {@code GET_OBJECT} meta request whose Range has a start
 * sends no HEAD first; a range of at most {@link #PART_SIZE} (every readahead part) is one request
 * whose body lands in a buffer of the CRT's pool, reused from part to part; a longer range or a
 * whole object comes as parts of that size, delivered in order. GETs of 1 MiB or less (a random
 * read's miss, a small file) stay {@code DEFAULT}, as they were: growing a buffer to 1 MiB costs
 * little, and with every GET sent as {@code GET_OBJECT} the cold random reads at 10 ms, hundreds of
 * page-sized GETs at once, measured lower in some rounds and within their noise in others
 * (docs/PERFORMANCE.md, tenth and twenty-eighth rounds).
 *
 * <p>The pool is the client's direct buffer pool ({@link S3Options#crtBufferPoolBytes}), whose
 * buffers the CRT lends to Java ({@code S3BorrowedBuffer}) instead of copying each body into a new
 * array: a readahead part of a whole slot is kept in its slot until read ({@link CrtGetResponse}),
 * so its bytes go from the socket to the page store and the FUSE reply with no copy in between
 * (docs/PERFORMANCE.md, forty-sixth round).
 *
 * <p>Only {@link #getObject}, {@link #putObject}, {@code uploadPart} (from a buffer, or read from a
 * file as it is sent), and the body-less requests a stat, a listing and a delete make ({@link
 * #headObject}, {@link #listObjectsV2}, {@link #deleteObject}) are implemented, for {@link
 * CrtReadsClient}, which keeps the watchdogs and the move to Netty. A PUT carries no checksum header (the
 * {@code when_required} default of {@code s3.checksum}; with {@code when_supported} PUTs stay on
 * the SDK). Responses become what the SDK would have given the transformer:
 * a {@link GetObjectResponse} from the headers and the body as a publisher; a status of 300 or more
 * an {@code S3Exception} with S3's error code, so {@link S3Errors} words it as it words the SDK's.
 */
final class CrtObjectClient implements S3AsyncClient {
    /** The CRT's part size for GETs: the readahead's parts, so each is one request. */
    static final int PART_SIZE = ReadaheadConfig.DEFAULT_PART_SIZE;
    /**
     * The longest range a GET sends as a {@code DEFAULT} meta request: a page at the cache's default
     * size, the GET of a random read's miss or of a small file.
     */
    static final int LONGEST_GROWN_BODY = 1 << 20;
    /** How long {@link #close} waits for lent slots to come back. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(CrtObjectClient.class);

    private final EventLoopGroup loops;
    private final HostResolver resolver;
    private final ClientBootstrap bootstrap;
    private final TlsContext tls;
    private final CredentialsProvider credentials;
    /** Every request but the pooled GETs: bodies come as arrays, as they did before the pool. */
    private final S3Client client;
    /**
     * GETs longer than a page ({@link #receivesIntoPool}): their bodies land in the direct buffer
     * pool and are lent. A client of their own because a client with a pool takes a slot of a
     * part's size for every response, a 4 KiB GET too, and so would cap all requests in flight at
     * the pool's slots. Null until {@link #openPool} (GETs go to {@link #client} until then) and
     * after close.
     */
    private volatile S3Client pooledClient;
    private final S3ClientOptions pooledOptions;
    /** Guarded by this: once set, no pooled client is built. */
    private boolean closed;
    /** The pool's slots lent out: the pool's memory, and the client, must outlive them. */
    private final LentSlots lent = new LentSlots();
    private final URI endpoint;
    private final boolean pathStyle;
    private final ConcurrentMap<String, URI> targets = new ConcurrentHashMap<>();

    CrtObjectClient(Options options, AwsCredentialsProvider sdkCredentials, Region region) {
        requireNonNull(sdkCredentials, "sdkCredentials is null");
        String regionId = region.id();
        String configured = options.get(S3Options.ENDPOINT);
        this.endpoint = URI.create(configured != null ? configured : "https://s3." + regionId + ".amazonaws.com");
        this.pathStyle = options.get(S3Options.PATH_STYLE_ACCESS);
        this.loops = new EventLoopGroup(0);
        this.resolver = new HostResolver(loops);
        this.bootstrap = new ClientBootstrap(loops, resolver);
        this.tls = "https".equalsIgnoreCase(endpoint.getScheme()) ? new TlsContext() : null;
        this.credentials = new DelegateCredentialsProvider.DelegateCredentialsProviderBuilder()
                .withHandler(() -> crtCredentials(sdkCredentials.resolveCredentials()))
                .build();
        this.client = new S3Client(clientOptions(options, regionId));
        this.pooledOptions = clientOptions(options, regionId).withDirectBufferPoolOptions(
                S3DirectBufferPoolOptions.elastic(S3Options.crtBufferPoolFloorBytes(options),
                        S3Options.crtBufferPoolBytes(options)));
    }

    /**
     * Builds the client whose GETs land in the pool; its pool allocates and zeroes its first block
     * now ({@link S3Options#crtBufferPoolFloorBytes}). Apart from the constructor so that the
     * first requests (a mount's check of its bucket) need not wait for that memory.
     */
    synchronized void openPool() {
        if (!closed && pooledClient == null) {
            pooledClient = new S3Client(pooledOptions);
        }
    }

    private S3ClientOptions clientOptions(Options options, String regionId) {
        Duration stall = options.get(S3Options.SOCKET_TIMEOUT);
        HttpMonitoringOptions monitoring = new HttpMonitoringOptions();
        monitoring.setMinThroughputBytesPerSecond(1);
        monitoring.setAllowableThroughputFailureIntervalSeconds((int) Math.max(2, stall.toSeconds()));
        S3ClientOptions clientOptions = new S3ClientOptions()
                .withRegion(regionId)
                .withClientBootstrap(bootstrap)
                .withCredentialsProvider(credentials)
                .withSigningConfig(AwsSigningConfig.getDefaultS3SigningConfig(regionId, credentials))
                .withPartSize(PART_SIZE)
                .withMaxConnections(options.get(S3Options.MAX_CONNECTIONS))
                .withConnectTimeoutMs((int) options.get(S3Options.CONNECT_TIMEOUT).toMillis())
                .withHttpMonitoringOptions(monitoring)
                .withStandardRetryOptions(new StandardRetryOptions().withBackoffRetryOptions(
                        new ExponentialBackoffRetryOptions().withMaxRetries(options.get(S3Options.MAX_ATTEMPTS) - 1)
                                .withBackoffScaleFactorMS(options.get(S3Options.RETRY_BASE_DELAY).toMillis())));
        if (tls != null) {
            clientOptions.withTlsContext(tls);
        }
        return clientOptions;
    }

    private static Credentials crtCredentials(AwsCredentials resolved) {
        byte[] token = resolved instanceof AwsSessionCredentials session
                ? session.sessionToken().getBytes(StandardCharsets.UTF_8) : null;
        return new Credentials(resolved.accessKeyId().getBytes(StandardCharsets.UTF_8),
                resolved.secretAccessKey().getBytes(StandardCharsets.UTF_8), token);
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public <T> CompletableFuture<T> getObject(GetObjectRequest request,
                                              AsyncResponseTransformer<GetObjectResponse, T> transformer) {
        CompletableFuture<T> result = transformer.prepare();
        List<HttpHeader> headers = new ArrayList<>(3);
        String host = hostOf(request.bucket());
        headers.add(new HttpHeader("Host", host));
        if (request.range() != null) {
            headers.add(new HttpHeader("Range", request.range()));
        }
        if (request.ifMatch() != null) {
            headers.add(new HttpHeader("If-Match", request.ifMatch()));
        }
        CrtGetResponse<T> response = new CrtGetResponse<>(transformer,
                transformer instanceof ChunkCopying copying && copying.copiesChunks(), PART_SIZE, lent);
        S3Client pooledNow = pooledClient;
        boolean pooled = pooledNow != null && receivesIntoPool(request.range());
        S3MetaRequest meta = (pooled ? pooledNow : client).makeMetaRequest(new S3MetaRequestOptions()
                .withMetaRequestType(pooled
                        ? S3MetaRequestOptions.MetaRequestType.GET_OBJECT : S3MetaRequestOptions.MetaRequestType.DEFAULT)
                .withOperationName("GetObject")
                .withHttpRequest(new HttpRequest("GET", pathOf(request.bucket(), request.key()),
                        headers.toArray(new HttpHeader[0]), null))
                .withEndpoint(targetOf(host))
                .withResponseHandler(response));
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                meta.cancel();
            }
            meta.close();
        });
        return result;
    }

    /** Whether a GET of {@code range} (null: the whole object) is received into the CRT's pooled buffers. */
    static boolean receivesIntoPool(String range) {
        if (range == null) {
            return true;
        }
        int dash = range.indexOf('-');
        if (!range.startsWith("bytes=") || dash < 0 || dash == range.length() - 1 || dash == "bytes=".length()) {
            return false; // a suffix or open range: as the store answers it
        }
        try {
            long length = Long.parseLong(range, dash + 1, range.length(), 10)
                    - Long.parseLong(range, "bytes=".length(), dash, 10) + 1;
            return length > LONGEST_GROWN_BODY;
        } catch (NumberFormatException e) {
            return false; // several ranges: as the store answers them
        }
    }

    /**
     * PutObject of {@code body}'s remaining bytes, which must stay untouched until the future
     * completes (the CRT reads them as it sends, and again for a retry). Completes with the ETag.
     */
    CompletableFuture<PutObjectResponse> putObject(PutObjectRequest request, ByteBuffer body) {
        return put("PutObject", request.bucket(), pathOf(request.bucket(), request.key()), body)
                .thenApply(etag -> PutObjectResponse.builder().eTag(etag).build());
    }

    /**
     * UploadPart of a region of a local file, read as the CRT sends it (again from the region's
     * start for a retry); the file must stay as it is until the future completes. Completes with
     * the part's ETag.
     */
    CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, FileRegionBody region) {
        String path = uploadPartPath(request);
        FileChannel file;
        try {
            file = FileChannel.open(region.file(), StandardOpenOption.READ);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<String> put = put("UploadPart", request.bucket(), path, region.length(),
                new FileRegionStream(file, region.position(), region.length()));
        put.whenComplete((etag, failure) -> closeQuietly(file));
        return put.thenApply(etag -> UploadPartResponse.builder().eTag(etag).build());
    }

    /** UploadPart of {@code body}'s remaining bytes, on the terms of {@link #putObject}. Completes with the ETag. */
    CompletableFuture<UploadPartResponse> uploadPart(UploadPartRequest request, ByteBuffer body) {
        return put("UploadPart", request.bucket(), uploadPartPath(request), body)
                .thenApply(etag -> UploadPartResponse.builder().eTag(etag).build());
    }

    private String uploadPartPath(UploadPartRequest request) {
        return pathOf(request.bucket(), request.key()) + "?partNumber=" + request.partNumber()
                + "&uploadId=" + SdkHttpUtils.urlEncode(request.uploadId());
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException ignored) {
            // only read from: nothing is lost
        }
    }

    /** A region of a file as a request body, read straight into the CRT's buffers. */
    private static final class FileRegionStream implements HttpRequestBodyStream {
        private final FileChannel file;
        private final long start;
        private final long length;
        private long sent;

        FileRegionStream(FileChannel file, long start, long length) {
            this.file = file;
            this.start = start;
            this.length = length;
        }

        @Override
        public boolean sendRequestBody(ByteBuffer out) {
            try {
                while (out.hasRemaining() && sent < length) {
                    ByteBuffer window = out.remaining() > length - sent
                            ? out.slice().limit((int) (length - sent)) : out.slice();
                    int n = file.read(window, start + sent);
                    if (n < 0) {
                        throw new IOException("the staged file ended " + (length - sent) + " bytes short of its part");
                    }
                    out.position(out.position() + n);
                    sent += n;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e); // the CRT fails the request with it
            }
            return sent == length;
        }

        @Override
        public boolean resetPosition() {
            sent = 0;
            return true;
        }

        @Override
        public long getLength() {
            return length;
        }
    }

    /** A PUT of {@code body}'s remaining bytes to {@code pathAndQuery}; completes with the answer's ETag. */
    private CompletableFuture<String> put(String operation, String bucket, String pathAndQuery, ByteBuffer body) {
        ByteBuffer source = body.slice().asReadOnlyBuffer();
        return put(operation, bucket, pathAndQuery, source.remaining(), new HttpRequestBodyStream() {
            @Override
            public boolean sendRequestBody(ByteBuffer out) {
                int n = Math.min(out.remaining(), source.remaining());
                out.put(source.duplicate().limit(source.position() + n));
                source.position(source.position() + n);
                return !source.hasRemaining();
            }

            @Override
            public boolean resetPosition() {
                source.rewind();
                return true;
            }

            @Override
            public long getLength() {
                return source.capacity();
            }
        });
    }

    /** A PUT of {@code length} bytes from {@code stream} to {@code pathAndQuery}; completes with the answer's ETag. */
    private CompletableFuture<String> put(String operation, String bucket, String pathAndQuery, long length,
                                          HttpRequestBodyStream stream) {
        CompletableFuture<String> result = new CompletableFuture<>();
        String host = hostOf(bucket);
        HttpHeader[] headers = {
                new HttpHeader("Host", host),
                new HttpHeader("Content-Length", Long.toString(length))};
        S3MetaRequest meta = client.makeMetaRequest(new S3MetaRequestOptions()
                .withMetaRequestType(S3MetaRequestOptions.MetaRequestType.DEFAULT)
                .withOperationName(operation)
                .withHttpRequest(new HttpRequest("PUT", pathAndQuery, headers, stream))
                .withEndpoint(targetOf(host))
                .withResponseHandler(new S3MetaRequestResponseHandler() {
                    private volatile String etag;

                    @Override
                    public void onResponseHeaders(int status, HttpHeader[] received) {
                        for (HttpHeader header : received) {
                            if (header.getName().equalsIgnoreCase("etag")) {
                                etag = header.getValue();
                            }
                        }
                    }

                    @Override
                    public void onFinished(S3FinishedResponseContext context) {
                        if (context.getErrorCode() == CRT.AWS_CRT_SUCCESS) {
                            result.complete(etag);
                        } else {
                            result.completeExceptionally(failureOf(context, "PUT"));
                        }
                    }
                }));
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                meta.cancel();
            }
            meta.close();
        });
        return result;
    }

    /** HeadObject of a key: its length, ETag and mtime; a missing key fails with S3's 404. */
    @Override
    public CompletableFuture<HeadObjectResponse> headObject(HeadObjectRequest request) {
        return send("HeadObject", "HEAD", request.bucket(), pathOf(request.bucket(), request.key()))
                .thenApply(answer -> {
                    String length = answer.header("content-length");
                    String modified = answer.header("last-modified");
                    return HeadObjectResponse.builder()
                            .contentLength(length == null ? null : Long.valueOf(length))
                            .eTag(answer.header("etag"))
                            .lastModified(modified == null ? null
                                    : ZonedDateTime.parse(modified, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant())
                            .build();
                });
    }

    @Override
    public CompletableFuture<DeleteObjectResponse> deleteObject(DeleteObjectRequest request) {
        return send("DeleteObject", "DELETE", request.bucket(), pathOf(request.bucket(), request.key()))
                .thenApply(answer -> DeleteObjectResponse.builder().build());
    }

    /** One ListObjectsV2 page, keys URL-encoded on the wire ({@link S3Xml#listing}). */
    @Override
    public CompletableFuture<ListObjectsV2Response> listObjectsV2(ListObjectsV2Request request) {
        StringBuilder query = new StringBuilder("?list-type=2&encoding-type=url");
        appendParameter(query, "prefix", request.prefix());
        appendParameter(query, "delimiter", request.delimiter());
        appendParameter(query, "max-keys", request.maxKeys() == null ? null : request.maxKeys().toString());
        appendParameter(query, "continuation-token", request.continuationToken());
        appendParameter(query, "start-after", request.startAfter());
        String bucketPath = pathStyle ? "/" + request.bucket() : "/";
        return send("ListObjectsV2", "GET", request.bucket(), bucketPath + query).thenApply(answer -> {
            if (answer.body().length == 0) {
                throw new UnreadBodyException("ListObjectsV2 answered 2xx with no body the CRT could read"
                        + " (one delimited by the connection's close, with neither Content-Length nor chunks)");
            }
            return S3Xml.listing(answer.body());
        });
    }

    /**
     * A successful answer whose body the CRT did not deliver: its HTTP client reads bodies framed
     * by Content-Length or chunks only, not one that ends with the connection (HTTP/1.0 style,
     * which some servers and proxies answer a {@code Connection: close} request with).
     */
    static final class UnreadBodyException extends RuntimeException {
        UnreadBodyException(String message) {
            super(message);
        }
    }

    private static void appendParameter(StringBuilder query, String name, String value) {
        if (value != null) {
            query.append('&').append(name).append('=').append(SdkHttpUtils.urlEncode(value));
        }
    }

    /**
     * Sends a request without a body and collects its whole answer; a status of 300 or more fails
     * it as S3's error. The CRT retries as it retries GETs; only the answer of the attempt that
     * succeeded reaches the handler (an earlier attempt's body, if any, is dropped at its head).
     */
    private CompletableFuture<Answer> send(String operation, String method, String bucket, String pathAndQuery) {
        CompletableFuture<Answer> result = new CompletableFuture<>();
        String host = hostOf(bucket);
        S3MetaRequest meta = client.makeMetaRequest(new S3MetaRequestOptions()
                .withMetaRequestType(S3MetaRequestOptions.MetaRequestType.DEFAULT)
                .withOperationName(operation)
                .withHttpRequest(new HttpRequest(method, pathAndQuery, new HttpHeader[] {new HttpHeader("Host", host)}, null))
                .withEndpoint(targetOf(host))
                .withResponseHandler(new S3MetaRequestResponseHandler() {
                    private HttpHeader[] headers = new HttpHeader[0];
                    private ByteArrayOutputStream body = new ByteArrayOutputStream();

                    @Override
                    public synchronized void onResponseHeaders(int status, HttpHeader[] received) {
                        if (status / 100 == 2) {
                            headers = received;
                            body = new ByteArrayOutputStream();
                        }
                    }

                    @Override
                    public synchronized int onResponseBody(ByteBuffer chunk, long start, long end) {
                        int length = chunk.remaining();
                        byte[] bytes = new byte[length];
                        chunk.get(bytes);
                        body.write(bytes, 0, length);
                        return length;
                    }

                    @Override
                    public synchronized void onFinished(S3FinishedResponseContext context) {
                        if (context.getErrorCode() == CRT.AWS_CRT_SUCCESS) {
                            result.complete(new Answer(headers, body.toByteArray()));
                        } else {
                            result.completeExceptionally(failureOf(context, method));
                        }
                    }
                }));
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                meta.cancel();
            }
            meta.close();
        });
        return result;
    }

    /** A successful answer: its headers and its whole body. */
    private record Answer(HttpHeader[] headers, byte[] body) {
        String header(String name) {
            for (HttpHeader header : headers) {
                if (header.getName().equalsIgnoreCase(name)) {
                    return header.getValue();
                }
            }
            return null;
        }
    }

    private String hostOf(String bucket) {
        String host = pathStyle ? endpoint.getHost() : bucket + "." + endpoint.getHost();
        return endpoint.getPort() < 0 ? host : host + ":" + endpoint.getPort();
    }

    private String pathOf(String bucket, String key) {
        String encoded = ObjectKeys.encodedForPath(key);
        return pathStyle ? "/" + bucket + "/" + encoded : "/" + encoded;
    }

    /** The request's endpoint: parsed once per host (one per bucket at most), not at every request. */
    private URI targetOf(String host) {
        return targets.computeIfAbsent(host, h -> URI.create(endpoint.getScheme() + "://" + h));
    }

    /** A failed request: S3's error when it answered one, else the CRT's, as a retryable client error. */
    static Throwable failureOf(S3FinishedResponseContext context, String method) {
        return context.getResponseStatus() >= 300
                ? S3Xml.serviceError(context.getResponseStatus(), context.getErrorPayload())
                : SdkClientException.builder().message(method + " failed: " + CRT.awsErrorString(context.getErrorCode()))
                        .cause(new IOException(CRT.awsErrorName(context.getErrorCode()))).build();
    }

    /**
     * Closes the clients once the pool's slots are all back (the page cache's fills and the
     * readahead let go of theirs as the file system closes). Slots still lent after a wait keep the
     * pooled client and what it runs on open, with a warning: freeing the pool under them would
     * leave their readers reading unmapped memory.
     */
    @Override
    public void close() {
        client.close();
        int stillLent = lent.awaitAllBack(CLOSE_WAIT);
        if (stillLent > 0) {
            log.warn("{} readahead parts still held memory of the S3 client's pool {} s after it was asked to close;"
                    + " the pool stays open until the process exits", stillLent, CLOSE_WAIT.toSeconds());
            return;
        }
        S3Client pooledNow;
        synchronized (this) {
            closed = true;
            pooledNow = pooledClient;
            pooledClient = null;
        }
        if (pooledNow != null) {
            pooledNow.close();
        }
        credentials.close();
        if (tls != null) {
            tls.close();
        }
        bootstrap.close();
        resolver.close();
        loops.close();
    }
}
