package io.strata.core.ufs.s3;

import io.strata.core.conf.DataSize;
import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;
import io.strata.core.conf.Options;
import io.strata.core.readahead.ReadaheadConfig;
import io.strata.core.readahead.ReadaheadOptions;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Options of the S3 under storage: where the endpoint is, who we are, how long to wait and how
 * often to retry, how files are uploaded. The access key pair uses Alluxio's names; without it
 * the AWS SDK's default chain applies (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, ~/.aws profiles,
 * container and instance roles).
 */
public final class S3Options implements OptionGroup {
    /** When the SDK adds and checks {@code x-amz-checksum-*} integrity checksums. */
    public enum Checksum {
        /** Only where the operation demands one (DeleteObjects): every S3-compatible store accepts this. */
        WHEN_REQUIRED,
        /** On every request and response that can carry one: AWS S3, and stores that implement it. */
        WHEN_SUPPORTED;

        static Checksum parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "when_required" -> WHEN_REQUIRED;
                case "when_supported" -> WHEN_SUPPORTED;
                default -> throw new IllegalArgumentException("expected when_required or when_supported");
            };
        }

        String print() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final OptionType<Checksum> CHECKSUM_TYPE = new OptionType<>("when_required|when_supported",
            Checksum::parse, Checksum::print);

    /** Which of the AWS SDK's S3 clients carries the requests. */
    public enum Client {
        /** The SDK's async client on Netty: every timeout and retry option applies. */
        NETTY,
        /** Object reads through the SDK's client on the AWS Common Runtime (native HTTP, as mountpoint-s3 uses). */
        CRT;

        static Client parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "netty" -> NETTY;
                case "crt" -> CRT;
                default -> throw new IllegalArgumentException("expected netty or crt");
            };
        }

        String print() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final OptionType<Client> CLIENT_TYPE = new OptionType<>("netty|crt", Client::parse, Client::print);

    /** S3's limits on a part of a multipart upload. */
    static final long MIN_PART_SIZE = 5L << 20;
    static final long MAX_PART_SIZE = 5L << 30;

    public static final Option<String> ENDPOINT = Option.builder("s3.endpoint", OptionType.STRING)
            .doc("S3 endpoint URL, e.g. http://127.0.0.1:9000 for MinIO or S3Proxy. Default: AWS S3 in s3.region.")
            .check(S3Options::isHttpUrl, "an http:// or https:// URL")
            .build();

    public static final Option<String> REGION = Option.builder("s3.region", OptionType.STRING)
            .doc("Region to sign requests for. Default: the SDK's (AWS_REGION, ~/.aws/config), else us-east-1.")
            .check(s -> s.matches("[a-z0-9-]+"), "a region name such as eu-west-1")
            .build();

    public static final Option<Boolean> PATH_STYLE_ACCESS = Option.builder("s3.path_style_access", OptionType.BOOLEAN)
            .defaultValue(false)
            .doc("Address buckets as endpoint/bucket instead of bucket.endpoint (most S3-compatible stores need this).")
            .build();

    public static final Option<String> ACCESS_KEY_ID = Option.builder("s3a.accessKeyId", OptionType.STRING)
            .doc("Access key id; with s3a.secretKey. Default: the SDK's credential chain (AWS_ACCESS_KEY_ID,"
                    + " ~/.aws/credentials, instance roles).")
            .check(s -> !s.isBlank(), "a non-empty access key id")
            .secret()
            .build();

    public static final Option<String> SECRET_KEY = Option.builder("s3a.secretKey", OptionType.STRING)
            .doc("Secret access key; with s3a.accessKeyId. Never printed or logged.")
            .check(s -> !s.isBlank(), "a non-empty secret key")
            .secret()
            .build();

    public static final Option<Duration> CONNECT_TIMEOUT = Option.builder("s3.connect_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(10))
            .doc("How long to wait for a connection to the endpoint before the attempt fails (and is retried).")
            .check(S3Options::positive, "a positive duration")
            .build();

    public static final Option<Duration> SOCKET_TIMEOUT = Option.builder("s3.socket_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(30))
            .doc("How long a request may see no bytes move, either way, before the attempt fails (and is retried).")
            .check(S3Options::positive, "a positive duration")
            .build();

    public static final Option<Duration> REQUEST_TIMEOUT = Option.builder("s3.request_timeout", OptionType.DURATION)
            .defaultValue(Duration.ofMinutes(5))
            .doc("Longest time one attempt of a request may take, transfer included, before it is retried.")
            .check(S3Options::positive, "a positive duration")
            .build();

    public static final Option<Integer> MAX_ATTEMPTS = Option.builder("s3.max_attempts", OptionType.INT)
            .defaultValue(6)
            .doc("Attempts per request (the first included) on throttling, 5xx, resets and timeouts; then EIO.")
            .check(i -> i >= 1 && i <= 100, "an integer from 1 to 100")
            .build();

    public static final Option<Duration> RETRY_BASE_DELAY = Option.builder("s3.retry_base_delay", OptionType.DURATION)
            .defaultValue(Duration.ofMillis(200))
            .doc("Backoff before the first retry; doubles per retry, with full jitter, up to s3.retry_max_delay.")
            .check(S3Options::positive, "a positive duration")
            .build();

    public static final Option<Duration> RETRY_MAX_DELAY = Option.builder("s3.retry_max_delay", OptionType.DURATION)
            .defaultValue(Duration.ofSeconds(10))
            .doc("Longest backoff between two attempts of one request.")
            .check(S3Options::positive, "a positive duration")
            .build();

    public static final Option<Checksum> CHECKSUM = Option.builder("s3.checksum", CHECKSUM_TYPE)
            .defaultValue(Checksum.WHEN_REQUIRED)
            .doc("When the SDK sends and checks x-amz-checksum-* headers. when_required works with every"
                    + " S3-compatible store (several, S3Proxy among them, reject the headers recent SDKs send by"
                    + " default); when_supported adds CRC checks on AWS S3. TLS and S3's Content-Length and"
                    + " ETag checks apply either way.")
            .build();

    public static final Option<Client> CLIENT = Option.builder("s3.client", CLIENT_TYPE)
            .defaultValue(Client.CRT)
            .doc("The S3 client. crt (default): object reads (GETs), uploads of up to 1MiB and the parts of"
                    + " larger ones (PUTs, with s3.checksum=when_required), stats (HEAD), listings and deletes sent by"
                    + " the AWS Common Runtime's S3 client directly (native HTTP, signing and retries, as mountpoint-s3"
                    + " uses), the start and end of multipart uploads and copies through the SDK's async client on"
                    + " Netty; one not answered within s3.socket_timeout (and a part within 1s per MiB more) moves to"
                    + " Netty. netty: everything through Netty. crt reads and writes small files ~1.6x, reads large"
                    + " ones ~30 % and writes them ~15 % faster from a fresh mount (docs/PERFORMANCE.md).")
            .build();

    public static final Option<Integer> MAX_CONNECTIONS = Option.builder("s3.max_connections", OptionType.INT)
            .defaultValue(64)
            .doc("Most HTTP connections (so requests in flight) to the endpoint.")
            .check(i -> i >= 1, "a positive integer")
            .build();

    public static final Option<DataSize> PART_SIZE = Option.builder("s3.part_size", OptionType.SIZE)
            .defaultValue(DataSize.ofMiB(8))
            .doc("First part size of a multipart upload; it doubles every 500 parts, so one object can reach"
                    + " S3's 5 TiB limit within 10,000 parts.")
            .check(s -> s.bytes() >= MIN_PART_SIZE && s.bytes() <= MAX_PART_SIZE, "from 5MiB to 5GiB")
            .build();

    public static final Option<Integer> UPLOAD_CONCURRENCY = Option.builder("s3.upload_concurrency", OptionType.INT)
            .defaultValue(4)
            .doc("Parts of one file uploaded at once while it is written (memory per file: this many times"
                    + " s3.part_size, plus the part being filled).")
            .check(i -> i >= 1 && i <= 64, "an integer from 1 to 64")
            .build();

    public static final Option<String> STAGING_DIR = Option.builder("s3.staging_dir", OptionType.STRING)
            .doc("Directory for local copies of files changed out of order (random writes, overwrites of"
                    + " existing objects), kept there if their upload fails. Default: strata-staging in the"
                    + " JVM's temporary directory.")
            .check(s -> s.startsWith("/"), "an absolute path")
            .build();

    @Override
    public String title() {
        return "S3";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(ENDPOINT, REGION, PATH_STYLE_ACCESS, ACCESS_KEY_ID, SECRET_KEY, CONNECT_TIMEOUT,
                SOCKET_TIMEOUT, REQUEST_TIMEOUT, MAX_ATTEMPTS, RETRY_BASE_DELAY, RETRY_MAX_DELAY, CHECKSUM,
                CLIENT, MAX_CONNECTIONS, PART_SIZE, UPLOAD_CONCURRENCY, STAGING_DIR);
    }

    /**
     * The direct memory the CRT-based client's buffer pool may hold ({@code s3.client=crt}), where
     * the bodies of GETs longer than a page land: a slot of a readahead part's size for each part
     * the readahead's budget ({@code buffer_size}) can keep, whose bytes stay in their slot until
     * read, and two more for GETs in flight whose bodies are copied out at once. Parts kept in
     * the pool are the budget's bytes, not the heap's.
     */
    public static long crtBufferPoolBytes(Options options) {
        long part = ReadaheadConfig.DEFAULT_PART_SIZE;
        return (options.get(ReadaheadOptions.BUFFER_SIZE).bytes() / part + 2) * part;
    }

    /**
     * The part of {@link #crtBufferPoolBytes} allocated when the client is built and kept from then
     * on: the pool's first block. The CRT allocates its pool a block of 16 slots at a time (128 MiB
     * with 8 MiB parts), zeroing it on the event loop that then serves every request; left to the
     * first GET that needs it, that stalled the first read of a stream by ~100 ms, and again after
     * each idle spell (the client frees unused blocks above this floor when idle).
     */
    static long crtBufferPoolFloorBytes(Options options) {
        return Math.min(CRT_POOL_BLOCK_SLOTS * (long) ReadaheadConfig.DEFAULT_PART_SIZE, crtBufferPoolBytes(options));
    }

    /** The slots in a block of the CRT's direct buffer pool (aws-crt 0.50's {@code S3DirectBufferPool}). */
    private static final int CRT_POOL_BLOCK_SLOTS = 16;

    private static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getRawUserInfo() == null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
