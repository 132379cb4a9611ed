package io.strata.core.ufs.s3;

import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.DelegatingS3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Builds the one {@link S3AsyncClient} of a volume from its {@link S3Options}.
 *
 * <p>HTTP goes through Netty (non-blocking; {@code s3.max_connections} connections), and with
 * {@code s3.client=crt} (the default) object reads, small writes, stats, listings and deletes
 * through the CRT client ({@link CrtReadsClient}). Failed
 * attempts are retried by the SDK's standard strategy: throttling (503 SlowDown and the like),
 * 5xx, connection resets and timeouts, up to {@code s3.max_attempts} attempts with exponential
 * backoff and full jitter; its retry-quota circuit breaker is off, so every request gets its full,
 * bounded budget whatever others did. There is no retry loop of our own anywhere above this.
 */
public final class S3Clients {
    private static final Region FALLBACK_REGION = Region.US_EAST_1;

    private S3Clients() {}

    /** Public for {@code strata objbench}, which measures the bucket through the client a mount would use. */
    public static S3AsyncClient create(Options options) {
        return options.get(S3Options.CLIENT) == S3Options.Client.CRT ? createCrt(options) : createNetty(options);
    }

    private static S3AsyncClient createNetty(Options options) {
        Duration requestTimeout = options.get(S3Options.REQUEST_TIMEOUT);
        // Our own event loops, so that closing the client stops them at once: the SDK shuts the
        // loops it makes with Netty's graceful quiet period, which held every unmount for 2 s.
        SdkEventLoopGroup loops = SdkEventLoopGroup.builder()
                .numberOfThreads(2 * Runtime.getRuntime().availableProcessors())
                .build();
        S3AsyncClientBuilder builder = S3AsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .eventLoopGroup(loops)
                        .maxConcurrency(options.get(S3Options.MAX_CONNECTIONS))
                        .connectionTimeout(options.get(S3Options.CONNECT_TIMEOUT))
                        .readTimeout(options.get(S3Options.SOCKET_TIMEOUT))
                        .writeTimeout(options.get(S3Options.SOCKET_TIMEOUT))
                        // Waiting for a free connection is bounded too; busy connections free up within one request.
                        .connectionAcquisitionTimeout(requestTimeout))
                .region(region(options))
                .credentialsProvider(credentials(options))
                .forcePathStyle(options.get(S3Options.PATH_STYLE_ACCESS))
                .overrideConfiguration(c -> c
                        .retryStrategy(retryStrategy(options))
                        .apiCallAttemptTimeout(requestTimeout));
        String endpoint = options.get(S3Options.ENDPOINT);
        if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
        }
        builder.requestChecksumCalculation(requestChecksums(options))
                .responseChecksumValidation(responseChecksums(options));
        try {
            return new LoopsOwningClient(builder.build(), loops);
        } catch (RuntimeException | Error e) {
            loops.eventLoopGroup().shutdownGracefully(0, LOOPS_CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * GETs, small PUTs, and plain HEAD, LIST and DELETE requests sent by the AWS Common Runtime's
     * S3 client ({@link CrtObjectClient}), every other request (multipart, copies) through Netty,
     * whose client is built when the first of those is sent ({@link DeferredS3AsyncClient}).
     * Not through the SDK's own CRT-based client: measured against S3Proxy behind a fault proxy, it
     * answered a ListObjectsV2 that met three 503s with an empty listing and a
     * CreateMultipartUpload that met a 500 with no upload id; {@link CrtObjectClient} reads each
     * status and body itself (S3FaultTest runs on this client, S3NettyFaultTest on Netty alone).
     * One difference stays: a request whose CRT retries outlast s3.socket_timeout before it is
     * answered moves to Netty with a budget of its own, so up to twice s3.max_attempts.
     */
    private static S3AsyncClient createCrt(Options options) {
        credentials(options); // a half-given key pair fails here, not at the first request
        // Built at the first multipart upload or copy: most sessions never send one.
        S3AsyncClient control = new DeferredS3AsyncClient(() -> createNetty(options));
        try {
            return new CrtReadsClient(control, () -> crtClient(options),
                    options.get(S3Options.CHECKSUM) == S3Options.Checksum.WHEN_REQUIRED, options.get(S3Options.SOCKET_TIMEOUT));
        } catch (RuntimeException | Error e) {
            control.close();
            throw e;
        }
    }

    /**
     * The CRT client, sent GETs directly ({@link CrtObjectClient}): connections, signing and retries
     * run in native code. It takes no per-attempt timeout; a stalled response is abandoned once it
     * moves under 1 byte/s for s3.socket_timeout (at least the 2 s the CRT's monitor accepts). Its
     * retries keep their own schedule; only the number of attempts and the base delay carry over.
     */
    private static CrtObjectClient crtClient(Options options) {
        CrtObjectClient client = new CrtObjectClient(options, credentials(options), region(options));
        CrtNativeLibrary.keepForNextStart(); // the CRT is loaded now, from the kept copy or the jar
        return client;
    }

    private static RequestChecksumCalculation requestChecksums(Options options) {
        return options.get(S3Options.CHECKSUM) == S3Options.Checksum.WHEN_REQUIRED
                ? RequestChecksumCalculation.WHEN_REQUIRED : RequestChecksumCalculation.WHEN_SUPPORTED;
    }

    private static ResponseChecksumValidation responseChecksums(Options options) {
        return options.get(S3Options.CHECKSUM) == S3Options.Checksum.WHEN_REQUIRED
                ? ResponseChecksumValidation.WHEN_REQUIRED : ResponseChecksumValidation.WHEN_SUPPORTED;
    }

    private static final long LOOPS_CLOSE_TIMEOUT_SECONDS = 5;

    /** The client, closing the event loops it runs on after itself, without a quiet period. */
    private static final class LoopsOwningClient extends DelegatingS3AsyncClient {
        private final SdkEventLoopGroup loops;

        LoopsOwningClient(S3AsyncClient client, SdkEventLoopGroup loops) {
            super(client);
            this.loops = loops;
        }

        @Override
        public void close() {
            try {
                super.close();
            } finally {
                // In-flight requests were failed by the client's close; nothing is left to drain.
                loops.eventLoopGroup().shutdownGracefully(0, LOOPS_CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                        .awaitUninterruptibly();
            }
        }
    }

    static StandardRetryStrategy retryStrategy(Options options) {
        BackoffStrategy backoff = BackoffStrategy.exponentialDelay(options.get(S3Options.RETRY_BASE_DELAY),
                options.get(S3Options.RETRY_MAX_DELAY));
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(options.get(S3Options.MAX_ATTEMPTS))
                .backoffStrategy(backoff)
                .throttlingBackoffStrategy(backoff)
                .circuitBreakerEnabled(false)
                .build();
    }

    /**
     * The key pair from the options when both are set, else the SDK's default chain, which is
     * resolved lazily at the first request. One of the two alone is a mistake, named without values.
     */
    static AwsCredentialsProvider credentials(Options options) {
        String accessKey = options.get(S3Options.ACCESS_KEY_ID);
        String secretKey = options.get(S3Options.SECRET_KEY);
        if (accessKey == null && secretKey == null) {
            return DefaultCredentialsProvider.builder().build();
        }
        if (accessKey == null || secretKey == null) {
            throw new OptionException("set both " + S3Options.ACCESS_KEY_ID.key() + " and "
                    + S3Options.SECRET_KEY.key() + ", or neither (then the AWS SDK's credential chain applies:"
                    + " AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, ~/.aws/credentials)");
        }
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey));
    }

    static Region region(Options options) {
        String region = options.get(S3Options.REGION);
        if (region != null) {
            return Region.of(region);
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException e) {
            return FALLBACK_REGION;
        }
    }
}
