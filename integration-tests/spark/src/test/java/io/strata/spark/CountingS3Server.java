package io.strata.spark;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.options.GetOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * S3Proxy in this JVM over an in-memory blob store, started as the other S3 tests start it
 * ({@code S3TestServer}, which this module cannot load: it is built on the unshaded client), and
 * counting the object reads it serves. The count is the under storage's own: a read the page
 * store served never reaches it, whatever the client's metrics say.
 */
final class CountingS3Server implements AutoCloseable {
    static final String ACCESS_KEY = "strata-spark-access";
    static final String SECRET_KEY = "strata-spark-secret-do-not-print";

    private final BlobStoreContext context;
    private final S3Proxy proxy;
    private final AtomicLong gets;

    private CountingS3Server(BlobStoreContext context, S3Proxy proxy, AtomicLong gets) {
        this.context = context;
        this.proxy = proxy;
        this.gets = gets;
    }

    static CountingS3Server start() throws Exception {
        BlobStoreContext context = ContextBuilder.newBuilder("transient")
                .credentials("identity", "credential")
                .build(BlobStoreContext.class);
        AtomicLong gets = new AtomicLong();
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new GetCounting(context.getBlobStore(), gets))
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                context.close();
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return new CountingS3Server(context, proxy, gets);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    void createBucket(String bucket) {
        context.getBlobStore().createContainerInLocation(null, bucket);
    }

    /** GET Object requests served so far (whole or ranged). */
    long gets() {
        return gets.get();
    }

    /**
     * The options that point Strata's S3 under storage here, by their {@code -o} names, without
     * the secret key (given apart: {@link #SECRET_KEY}).
     */
    Map<String, String> options() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("s3.endpoint", endpoint().toString());
        options.put("s3.region", "us-east-1");
        options.put("s3.path_style_access", "true");
        // S3Proxy rejects the x-amz-checksum-* headers new SDKs send unless asked to.
        options.put("s3.checksum", "when_required");
        options.put("s3a.accessKeyId", ACCESS_KEY);
        return options;
    }

    @Override
    public void close() throws Exception {
        try {
            proxy.stop();
        } finally {
            context.close();
        }
    }

    /** The blob store S3Proxy serves, counting the reads of object contents. */
    private static final class GetCounting extends ForwardingBlobStore {
        private final AtomicLong gets;

        GetCounting(BlobStore delegate, AtomicLong gets) {
            super(delegate);
            this.gets = gets;
        }

        @Override
        public Blob getBlob(String container, String name) {
            gets.incrementAndGet();
            return super.getBlob(container, name);
        }

        @Override
        public Blob getBlob(String container, String name, GetOptions options) {
            gets.incrementAndGet();
            return super.getBlob(container, name, options);
        }
    }
}
