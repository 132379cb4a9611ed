package io.strata.core.ufs.s3;

import io.strata.core.conf.Options;
import org.w3c.dom.Document;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.w3c.dom.NodeList;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
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
import software.amazon.awssdk.crt.s3.S3FinishedResponseContext;
import software.amazon.awssdk.crt.s3.S3MetaRequest;
import software.amazon.awssdk.crt.s3.S3MetaRequestOptions;
import software.amazon.awssdk.crt.s3.S3MetaRequestResponseHandler;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.utils.async.SimplePublisher;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

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
 * (docs/PERFORMANCE.md). The CRT also sends each request as it is given (the
 * {@code DEFAULT} meta request): no split into parts, and none of the part buffers it reserves 16
 * at a time for a split GET.
 *
 * <p>Only {@link #getObject} and {@link #putObject} are implemented, for {@link CrtReadsClient},
 * which keeps the watchdogs and the move to Netty. A PUT carries no checksum header (the
 * {@code when_required} default of {@code s3.checksum}; with {@code when_supported} PUTs stay on
 * the SDK). Responses become what the SDK would have given the transformer:
 * a {@link GetObjectResponse} from the headers and the body as a publisher; a status of 300 or more
 * an {@link S3Exception} with S3's error code, so {@link S3Errors} words it as it words the SDK's.
 */
final class CrtObjectClient implements S3AsyncClient {
    private final EventLoopGroup loops;
    private final HostResolver resolver;
    private final ClientBootstrap bootstrap;
    private final TlsContext tls;
    private final CredentialsProvider credentials;
    private final S3Client client;
    private final URI endpoint;
    private final boolean pathStyle;

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
        Duration stall = options.get(S3Options.SOCKET_TIMEOUT);
        HttpMonitoringOptions monitoring = new HttpMonitoringOptions();
        monitoring.setMinThroughputBytesPerSecond(1);
        monitoring.setAllowableThroughputFailureIntervalSeconds((int) Math.max(2, stall.toSeconds()));
        S3ClientOptions clientOptions = new S3ClientOptions()
                .withRegion(regionId)
                .withClientBootstrap(bootstrap)
                .withCredentialsProvider(credentials)
                .withSigningConfig(AwsSigningConfig.getDefaultS3SigningConfig(regionId, credentials))
                .withMaxConnections(options.get(S3Options.MAX_CONNECTIONS))
                .withConnectTimeoutMs((int) options.get(S3Options.CONNECT_TIMEOUT).toMillis())
                .withHttpMonitoringOptions(monitoring)
                .withStandardRetryOptions(new StandardRetryOptions().withBackoffRetryOptions(
                        new ExponentialBackoffRetryOptions().withMaxRetries(options.get(S3Options.MAX_ATTEMPTS) - 1)
                                .withBackoffScaleFactorMS(options.get(S3Options.RETRY_BASE_DELAY).toMillis())));
        if (tls != null) {
            clientOptions.withTlsContext(tls);
        }
        this.client = new S3Client(clientOptions);
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
        Response<T> response = new Response<>(transformer,
                transformer instanceof ChunkCopying copying && copying.copiesChunks());
        S3MetaRequest meta = client.makeMetaRequest(new S3MetaRequestOptions()
                .withMetaRequestType(S3MetaRequestOptions.MetaRequestType.DEFAULT)
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

    /**
     * PutObject of {@code body}'s remaining bytes, which must stay untouched until the future
     * completes (the CRT reads them as it sends, and again for a retry). Completes with the ETag.
     */
    CompletableFuture<PutObjectResponse> putObject(PutObjectRequest request, ByteBuffer body) {
        CompletableFuture<PutObjectResponse> result = new CompletableFuture<>();
        String host = hostOf(request.bucket());
        HttpHeader[] headers = {
                new HttpHeader("Host", host),
                new HttpHeader("Content-Length", Integer.toString(body.remaining()))};
        ByteBuffer source = body.slice().asReadOnlyBuffer();
        HttpRequestBodyStream stream = new HttpRequestBodyStream() {
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
        };
        S3MetaRequest meta = client.makeMetaRequest(new S3MetaRequestOptions()
                .withMetaRequestType(S3MetaRequestOptions.MetaRequestType.DEFAULT)
                .withOperationName("PutObject")
                .withHttpRequest(new HttpRequest("PUT", pathOf(request.bucket(), request.key()), headers, stream))
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
                            result.complete(PutObjectResponse.builder().eTag(etag).build());
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

    private String hostOf(String bucket) {
        String host = pathStyle ? endpoint.getHost() : bucket + "." + endpoint.getHost();
        return endpoint.getPort() < 0 ? host : host + ":" + endpoint.getPort();
    }

    private String pathOf(String bucket, String key) {
        String encoded = SdkHttpUtils.urlEncodeIgnoreSlashes(key);
        return pathStyle ? "/" + bucket + "/" + encoded : "/" + encoded;
    }

    private URI targetOf(String host) {
        return URI.create(endpoint.getScheme() + "://" + host);
    }

    /** A failed request: S3's error when it answered one, else the CRT's, as a retryable client error. */
    private static Throwable failureOf(S3FinishedResponseContext context, String method) {
        return context.getResponseStatus() >= 300
                ? serviceError(context.getResponseStatus(), context.getErrorPayload())
                : SdkClientException.builder().message(method + " failed: " + CRT.awsErrorString(context.getErrorCode()))
                        .cause(new IOException(CRT.awsErrorName(context.getErrorCode()))).build();
    }

    /**
     * One GET's callbacks, in the transformer's terms: the response and its publisher once a 2xx
     * head arrives, its body chunks, then the end, or the failure. The CRT's buffer is its own once
     * a callback returns: a {@link ChunkCopying} transformer gets it as it is, any other a copy.
     */
    private static final class Response<T> implements S3MetaRequestResponseHandler {
        private final AsyncResponseTransformer<GetObjectResponse, T> transformer;
        private final boolean inline;
        private Body body;

        Response(AsyncResponseTransformer<GetObjectResponse, T> transformer, boolean inline) {
            this.transformer = transformer;
            this.inline = inline;
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
        public void onFinished(S3FinishedResponseContext context) {
            if (context.getErrorCode() == CRT.AWS_CRT_SUCCESS) {
                body.complete();
                return;
            }
            Throwable failure = failureOf(context, "GET");
            if (body != null) {
                body.error(failure);
            } else {
                transformer.exceptionOccurred(failure);
            }
        }
    }

    /** A response body as the transformer subscribes to it. */
    private interface Body {
        SdkPublisher<ByteBuffer> publisher();

        /** Passes on a chunk the CRT owns again once this returns. */
        void send(ByteBuffer chunk);

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

        @Override
        public void send(ByteBuffer chunk) {
            if (subscriber == null) {
                throw new IllegalStateException("a ChunkCopying transformer did not subscribe in onStream");
            }
            if (!cancelled) {
                subscriber.onNext(chunk.asReadOnlyBuffer());
            }
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

    /** S3's error, as the SDK would have made it: the status, and the code and message of its XML body. */
    static S3Exception serviceError(int status, byte[] payload) {
        String code = null;
        String message = null;
        String requestId = null;
        if (payload != null && payload.length > 0) {
            try {
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                Document xml = factory.newDocumentBuilder().parse(new ByteArrayInputStream(payload));
                code = text(xml, "Code");
                message = text(xml, "Message");
                requestId = text(xml, "RequestId");
            } catch (Exception notXml) {
                message = new String(payload, StandardCharsets.UTF_8);
            }
        }
        if (code == null) {
            code = switch (status) {
                case 404 -> "NoSuchKey";
                case 412 -> "PreconditionFailed";
                case 403 -> "AccessDenied";
                default -> "Status" + status;
            };
        }
        String text = message != null ? message : code;
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .requestId(requestId)
                .message(text)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(text).serviceName("S3").build())
                .build();
    }

    private static String text(Document xml, String element) {
        NodeList nodes = xml.getElementsByTagName(element);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
    }

    @Override
    public void close() {
        client.close();
        credentials.close();
        if (tls != null) {
            tls.close();
        }
        bootstrap.close();
        resolver.close();
        loops.close();
    }
}
