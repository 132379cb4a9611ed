package io.strata.it.bench;

import io.strata.core.ufs.s3.S3TestServer;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * S3Proxy over a blob store in a local directory, as a process of its own, for
 * {@code bench/s3-readahead.sh}: the mount daemon and the plain SDK download talk to it over
 * HTTP (through {@link DelayProxy}), as they would to an S3 service.
 *
 * <p>Usage: {@code S3BenchServer DIR PORT_FILE [PROVIDER]}. Listens on a free loopback port and
 * writes it to PORT_FILE once serving; runs until killed. The key pair it accepts comes from the
 * environment, {@code STRATA_S3A_ACCESSKEYID} and {@code STRATA_S3A_SECRETKEY} (the names the mount
 * reads), so it never appears on a command line. PROVIDER is a jclouds blob store with a base
 * directory: {@code filesystem-nio2} (S3Proxy's own, the default) or {@code filesystem}.
 */
public final class S3BenchServer {
    private S3BenchServer() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: S3BenchServer DIR PORT_FILE [PROVIDER]");
            System.exit(2);
        }
        Path dir = Files.createDirectories(Path.of(args[0]));
        Path portFile = Path.of(args[1]);
        String provider = args.length > 2 ? args[2] : "filesystem-nio2";
        String access = requireEnv("STRATA_S3A_ACCESSKEYID");
        String secret = requireEnv("STRATA_S3A_SECRETKEY");
        Properties overrides = new Properties();
        overrides.setProperty("jclouds.filesystem.basedir", dir.toString());
        BlobStoreContext context = ContextBuilder.newBuilder(provider)
                .credentials("identity", "credential")
                .overrides(overrides)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3TestServer.startS3Proxy(context, access, secret);
        Path partial = portFile.resolveSibling(portFile.getFileName() + ".tmp");
        Files.writeString(partial, Integer.toString(proxy.getPort()));
        Files.move(partial, portFile, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }

    static String requireEnv(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            System.err.println(name + " is not set");
            System.exit(2);
        }
        return value;
    }
}
