package io.strata.core.ufs.s3;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The S3 server the S3 tests talk to over HTTP: S3Proxy with an in-memory ("transient") blob
 * store, started once per JVM on a free loopback port, or any S3 endpoint named by environment
 * variables:
 *
 * <ul>
 *   <li>{@code STRATA_TEST_S3_ENDPOINT}: the endpoint URL (for AWS S3 itself:
 *       {@code https://s3.REGION.amazonaws.com});</li>
 *   <li>{@code STRATA_TEST_S3_BUCKET}: an existing bucket the tests may write into; each test
 *       works under its own random prefix and touches nothing else, and leaves what it wrote
 *       (give the bucket an expiry rule);</li>
 *   <li>{@code STRATA_TEST_S3_REGION} (default us-east-1), {@code STRATA_TEST_S3_PATH_STYLE}
 *       (default true), {@code STRATA_TEST_S3_CHECKSUM} (default when_required);</li>
 *   <li>credentials from the SDK's default chain: {@code AWS_ACCESS_KEY_ID} and
 *       {@code AWS_SECRET_ACCESS_KEY}, or {@code AWS_PROFILE}.</li>
 * </ul>
 *
 * <p>Published in core's test jar for the integration tests.
 */
public final class S3TestServer {
    public static final String ENDPOINT_ENV = "STRATA_TEST_S3_ENDPOINT";
    public static final String BUCKET_ENV = "STRATA_TEST_S3_BUCKET";
    public static final String REGION_ENV = "STRATA_TEST_S3_REGION";
    public static final String PATH_STYLE_ENV = "STRATA_TEST_S3_PATH_STYLE";
    public static final String CHECKSUM_ENV = "STRATA_TEST_S3_CHECKSUM";
    /** netty or crt: the S3 client every S3 test runs on (default the product's). */
    public static final String CLIENT_ENV = "STRATA_TEST_S3_CLIENT";

    private static final String ACCESS_KEY = "strata-test-access";
    private static final String SECRET_KEY = "strata-test-secret-do-not-print";
    private static final AtomicInteger BUCKETS = new AtomicInteger();
    private static S3TestServer shared;

    private final URI endpoint;
    private final String fixedBucket;
    private final String region;
    private final boolean pathStyle;
    private final String checksum;
    private final S3AsyncClient client;

    private S3TestServer(URI endpoint, String fixedBucket, String region, boolean pathStyle, String checksum,
                         boolean staticCredentials) {
        this.endpoint = endpoint;
        this.fixedBucket = fixedBucket;
        this.region = region;
        this.pathStyle = pathStyle;
        this.checksum = checksum;
        this.client = S3AsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder())
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .forcePathStyle(pathStyle)
                .credentialsProvider(staticCredentials
                        ? StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY))
                        : DefaultCredentialsProvider.builder().build())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .retryOnException(S3TestServer::isNettyPipelineRace).build()))
                .build();
    }

    /**
     * The SDK's Netty client, given a hundred requests at once, now and then reuses a connection
     * whose last body subscriber is still in its pipeline and fails the request with "Duplicate
     * handler name: HttpStreamsClientHandler-body-subscriber" (CrtRequestsTest and S3MountTest
     * seeding their buckets failed so in CI). What this client sends only arranges or checks a test
     * (PUTs, GETs, listings, deletes of its own keys), all safe to repeat: it retries that failure
     * as the SDK retries a broken connection.
     */
    private static boolean isNettyPipelineRace(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException && t.getMessage() != null
                    && t.getMessage().startsWith("Duplicate handler name")) {
                return true;
            }
        }
        return false;
    }

    /** The JVM's server: the endpoint from the environment, else an S3Proxy started now. */
    public static synchronized S3TestServer shared() {
        if (shared == null) {
            String external = System.getenv(ENDPOINT_ENV);
            shared = external != null && !external.isBlank() ? external(external) : startProxy();
        }
        return shared;
    }

    private static S3TestServer external(String endpoint) {
        String bucket = System.getenv(BUCKET_ENV);
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalStateException(ENDPOINT_ENV + " is set but " + BUCKET_ENV + " is not: name an existing"
                    + " bucket the tests may write into");
        }
        String region = Optional.ofNullable(System.getenv(REGION_ENV)).orElse("us-east-1");
        boolean pathStyle = !"false".equalsIgnoreCase(System.getenv(PATH_STYLE_ENV));
        String checksum = Optional.ofNullable(System.getenv(CHECKSUM_ENV)).orElse("when_required");
        return new S3TestServer(URI.create(endpoint), bucket, region, pathStyle, checksum, false);
    }

    private static S3TestServer startProxy() {
        try {
            BlobStoreContext context = ContextBuilder.newBuilder("transient")
                    .credentials("identity", "credential")
                    .build(BlobStoreContext.class);
            S3Proxy proxy = startS3Proxy(context, ACCESS_KEY, SECRET_KEY);
            return new S3TestServer(URI.create("http://127.0.0.1:" + proxy.getPort()), null, "us-east-1", true,
                    "when_required", true);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start S3Proxy", e);
        }
    }

    /**
     * Starts S3Proxy on a free loopback port over {@code context}'s blob store, accepting the key
     * pair given, and returns once it serves; it stops, and the context closes, when the JVM exits.
     * The benchmarks' server ({@code S3BenchServer}) starts it the same way over a directory.
     */
    public static S3Proxy startS3Proxy(BlobStoreContext context, String accessKey, String secretKey)
            throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                proxy.stop();
            } catch (Exception e) {
                // the JVM is exiting
            }
            context.close();
        }, "s3proxy-stop"));
        return proxy;
    }

    /** Whether the tests run against S3Proxy started here (false: an endpoint from the environment). */
    public boolean isLocalProxy() {
        return fixedBucket == null;
    }

    public URI endpoint() {
        return endpoint;
    }

    /**
     * A fresh, empty place for one test: a new bucket on S3Proxy, or a new random prefix in the
     * environment's bucket. Returned as the volume URI {@code s3://bucket[/prefix]}.
     */
    public URI newVolume(String name) {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        if (slug.length() > 30) {
            slug = slug.substring(0, 30);
        }
        if (fixedBucket != null) {
            return URI.create("s3://" + fixedBucket + "/strata-test-" + slug + "-" + UUID.randomUUID());
        }
        String bucket = "t" + BUCKETS.incrementAndGet() + "-" + slug.replaceAll("-+$", "");
        client.createBucket(b -> b.bucket(bucket)).join();
        return URI.create("s3://" + bucket);
    }

    /** Options that point the S3 under storage at this server ({@code extra} as key, value pairs on top). */
    public Options options(String... extra) {
        OptionsLoader loader = new OptionsLoader(OptionRegistry.load());
        optionText().forEach((key, value) -> loader.set(key, value, "test"));
        for (int i = 0; i + 1 < extra.length; i += 2) {
            loader.set(extra[i], extra[i + 1], "test");
        }
        return loader.build();
    }

    /** The options as {@code key=value} text, as for {@code -o}; the endpoint can be replaced (a fault proxy). */
    public Map<String, String> optionText() {
        return optionText(endpoint);
    }

    public Map<String, String> optionText(URI via) {
        Map<String, String> text = new LinkedHashMap<>();
        text.put("s3.endpoint", via.toString());
        text.put("s3.region", region);
        text.put("s3.path_style_access", Boolean.toString(pathStyle));
        text.put("s3.checksum", checksum);
        Optional.ofNullable(System.getenv(CLIENT_ENV)).ifPresent(client -> text.put("s3.client", client));
        if (isLocalProxy()) {
            text.put("s3a.accessKeyId", ACCESS_KEY);
            text.put("s3a.secretKey", SECRET_KEY);
        }
        return text;
    }

    /** The secret key the local proxy checks, for tests that assert it is never printed. */
    public static String secretKey() {
        return SECRET_KEY;
    }

    /** A plain SDK client on this server, independent of the code under test. */
    public S3AsyncClient client() {
        return client;
    }

    // ---- plain object access, for arranging and checking tests ----

    public void put(URI volume, String path, byte[] data) {
        S3Location at = S3Location.parse(volume);
        client.putObject(b -> b.bucket(at.bucket()).key(key(at, path)), AsyncRequestBody.fromBytes(data)).join();
    }

    public void delete(URI volume, String path) {
        S3Location at = S3Location.parse(volume);
        client.deleteObject(b -> b.bucket(at.bucket()).key(key(at, path))).join();
    }

    /** {@code count} empty objects {@code k00000}, {@code k00001}, ... under {@code dir} (ending in '/'), 64 puts at a time. */
    public void putEmpty(URI volume, String dir, int count) {
        S3Location at = S3Location.parse(volume);
        List<CompletableFuture<?>> puts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = key(at, dir + String.format("k%05d", i));
            puts.add(client.putObject(b -> b.bucket(at.bucket()).key(key), AsyncRequestBody.fromBytes(new byte[0])));
            if (puts.size() == 64) {
                CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0])).join();
                puts.clear();
            }
        }
        CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0])).join();
    }

    /** The object's bytes, or empty if there is none. */
    public Optional<byte[]> get(URI volume, String path) {
        S3Location at = S3Location.parse(volume);
        try {
            return Optional.of(client.getObject(b -> b.bucket(at.bucket()).key(key(at, path)),
                    AsyncResponseTransformer.toBytes()).join().asByteArray());
        } catch (CompletionException e) {
            if (e.getCause() instanceof NoSuchKeyException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Every key under the volume, relative to it, in listing order. */
    public List<String> keys(URI volume) {
        S3Location at = S3Location.parse(volume);
        String prefix = at.prefix().isEmpty() ? "" : at.prefix() + "/";
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page = client.listObjectsV2(b -> b.bucket(at.bucket()).prefix(prefix)
                    .continuationToken(continuation)).join();
            for (S3Object object : page.contents()) {
                keys.add(object.key().substring(prefix.length()));
            }
            token = page.isTruncated() ? page.nextContinuationToken() : null;
        } while (token != null);
        return keys;
    }

    private static String key(S3Location at, String path) {
        return at.prefix().isEmpty() ? path : at.prefix() + "/" + path;
    }
}
