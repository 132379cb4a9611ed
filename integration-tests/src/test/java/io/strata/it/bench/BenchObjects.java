package io.strata.it.bench;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.net.URI;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The plain S3 side of {@code bench/s3-readahead.sh}, with the AWS SDK's async client and nothing
 * of Strata:
 *
 * <ul>
 *   <li>{@code put ENDPOINT BUCKET KEY MIB}: creates the bucket (if needed) and uploads an object of
 *       MIB mebibytes of pseudo-random bytes as a multipart upload; prints their SHA-256;</li>
 *   <li>{@code get ENDPOINT BUCKET KEY PART_MIB CONCURRENCY [WARMUP_ROUNDS]}: downloads the object
 *       as ranged GETs of PART_MIB, CONCURRENCY at a time, counting the bytes and keeping none (the
 *       server and network limit a reader can reach): WARMUP_ROUNDS times untimed (default 0; the
 *       JIT compiles the SDK's paths meanwhile, as the mount's warm-up reads do for the daemon),
 *       then once timed; prints that round's {@code MiB/s}.</li>
 * </ul>
 * The key pair comes from {@code STRATA_S3A_ACCESSKEYID} and {@code STRATA_S3A_SECRETKEY}.
 */
public final class BenchObjects {
    private static final int UPLOAD_PART = 16 << 20;

    private BenchObjects() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: BenchObjects put ENDPOINT BUCKET KEY MIB"
                    + " | get ENDPOINT BUCKET KEY PART_MIB CONCURRENCY [WARMUP_ROUNDS]");
            System.exit(2);
        }
        String command = args[0];
        URI endpoint = URI.create(args[1]);
        String bucket = args[2];
        String key = args[3];
        int concurrency = command.equals("get") ? Integer.parseInt(args[5]) : 4;
        int warmups = command.equals("get") && args.length > 6 ? Integer.parseInt(args[6]) : 0;
        try (S3AsyncClient client = client(endpoint, concurrency)) {
            switch (command) {
                case "put" -> put(client, bucket, key, Long.parseLong(args[4]) << 20);
                case "get" -> {
                    int partSize = Integer.parseInt(args[4]) << 20;
                    for (int round = 0; round < warmups; round++) {
                        get(client, bucket, key, partSize, concurrency);
                    }
                    System.out.printf(Locale.ROOT, "%.1f%n", get(client, bucket, key, partSize, concurrency));
                }
                default -> {
                    System.err.println("unknown command " + command);
                    System.exit(2);
                }
            }
        }
    }

    private static S3AsyncClient client(URI endpoint, int concurrency) {
        return S3AsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(Math.max(4, concurrency))
                        .readTimeout(Duration.ofSeconds(60)))
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        S3BenchServer.requireEnv("STRATA_S3A_ACCESSKEYID"),
                        S3BenchServer.requireEnv("STRATA_S3A_SECRETKEY"))))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build();
    }

    private static void put(S3AsyncClient client, String bucket, String key, long size) {
        client.createBucket(b -> b.bucket(bucket)).handle((r, e) -> null).join(); // fine if it exists
        String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(key)).join().uploadId();
        Random random = new Random(42);
        MessageDigest sha256 = sha256();
        Semaphore slots = new Semaphore(4);
        List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
        for (long offset = 0, number = 1; offset < size; offset += UPLOAD_PART, number++) {
            byte[] data = new byte[(int) Math.min(UPLOAD_PART, size - offset)];
            random.nextBytes(data);
            sha256.update(data);
            int partNumber = (int) number;
            slots.acquireUninterruptibly();
            CompletableFuture<CompletedPart> part = client.uploadPart(b -> b.bucket(bucket).key(key)
                            .uploadId(uploadId).partNumber(partNumber).contentLength((long) data.length),
                    AsyncRequestBody.fromBytes(data))
                    .thenApply(r -> CompletedPart.builder().partNumber(partNumber).eTag(r.eTag()).build());
            part.whenComplete((r, e) -> slots.release());
            parts.add(part);
        }
        List<CompletedPart> done = parts.stream().map(CompletableFuture::join).toList();
        client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(done))).join();
        System.out.println(HexFormat.of().formatHex(sha256.digest()));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One download of the whole object; returns MiB/s. */
    private static double get(S3AsyncClient client, String bucket, String key, int partSize, int concurrency) {
        long size = client.headObject(b -> b.bucket(bucket).key(key)).join().contentLength();
        AtomicLong received = new AtomicLong();
        Semaphore slots = new Semaphore(concurrency);
        List<CompletableFuture<Long>> gets = new ArrayList<>();
        long start = System.nanoTime();
        for (long offset = 0; offset < size; offset += partSize) {
            String range = "bytes=" + offset + "-" + (Math.min(size, offset + partSize) - 1);
            slots.acquireUninterruptibly();
            CompletableFuture<Long> get = client.getObject(b -> b.bucket(bucket).key(key).range(range),
                    new Counting(received));
            get.whenComplete((r, e) -> slots.release());
            gets.add(get);
        }
        gets.forEach(CompletableFuture::join);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (received.get() != size) {
            throw new IllegalStateException("received " + received.get() + " of " + size + " bytes");
        }
        return size / 1048576.0 / seconds;
    }

    /** Counts a body's bytes and keeps none. */
    private static final class Counting implements AsyncResponseTransformer<GetObjectResponse, Long> {
        private final AtomicLong total;
        private volatile CompletableFuture<Long> result;

        Counting(AtomicLong total) {
            this.total = total;
        }

        @Override
        public CompletableFuture<Long> prepare() {
            result = new CompletableFuture<>();
            return result;
        }

        @Override
        public void onResponse(GetObjectResponse response) {}

        @Override
        public void onStream(SdkPublisher<ByteBuffer> publisher) {
            CompletableFuture<Long> attempt = result;
            publisher.subscribe(new Subscriber<ByteBuffer>() {
                private long count;

                @Override
                public void onSubscribe(Subscription subscription) {
                    subscription.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(ByteBuffer chunk) {
                    count += chunk.remaining();
                }

                @Override
                public void onError(Throwable error) {
                    attempt.completeExceptionally(error);
                }

                @Override
                public void onComplete() {
                    total.addAndGet(count);
                    attempt.complete(count);
                }
            });
        }

        @Override
        public void exceptionOccurred(Throwable error) {
            CompletableFuture<Long> attempt = result;
            if (attempt != null) {
                attempt.completeExceptionally(error);
            }
        }
    }
}
