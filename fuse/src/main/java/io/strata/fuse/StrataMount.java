package io.strata.fuse;

import io.strata.client.StrataFileSystem;
import io.strata.client.metrics.MetricsOptions;
import io.strata.client.metrics.MetricsServer;
import io.strata.client.metrics.StrataMeters;
import io.strata.fuse.kernel.CompilerThreads;
import io.strata.fuse.observe.MountStats;
import io.strata.core.conf.OptionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * A mounted Strata volume: owns the transport's session, the file system and its metastore.
 *
 * <p>The transport is Strata's own speaker of the kernel protocol ({@code fuse=kernel}, the
 * default) or libfuse2 through jnr-fuse ({@code fuse=jnr}). Either way, readiness is read from the
 * kernel's mount table: jnr-fuse's own non-blocking mount waits a fixed 2 s and cannot tell success
 * from failure.
 */
public final class StrataMount implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StrataMount.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration UNMOUNT_TIMEOUT = Duration.ofSeconds(30);

    private final Path mountPoint;
    private final StrataFileSystem fs;
    private final FuseSession session;
    private final MetricsServer metrics;
    /** Ends by itself within milliseconds; joined at close, before the metastore it reads is closed. */
    private final Thread warmUp;
    /** The compiler threads the warm-up confined, if it did; written before it ends. */
    private volatile CompilerThreads compilers;
    private boolean closed;

    private StrataMount(Path mountPoint, StrataFileSystem fs, FuseSession session, MetricsServer metrics,
                        MountStats stats, boolean confineJit) {
        this.mountPoint = mountPoint;
        this.fs = fs;
        this.session = session;
        this.metrics = metrics;
        this.warmUp = new Thread(() -> warmUp(stats, confineJit), "strata-warmup");
        this.warmUp.setDaemon(true);
    }

    /**
     * Opens the volume and mounts it; returns once the kernel lists the mount. A failure is a
     * {@link MountException} whose message is one line for the user.
     */
    public static StrataMount mount(MountRequest request) throws IOException {
        requireNonNull(request, "request is null");
        Path mountPoint = request.mountPoint().toAbsolutePath().normalize();
        String transport;
        try {
            transport = request.options().get(FuseOptions.TRANSPORT);
            KernelCacheMode.from(request.options());
        } catch (OptionException e) {
            throw new MountException(e.getMessage());
        }
        checkMountPoint(mountPoint);
        if (!transport.equals(FuseOptions.JNR)) {
            KernelTransport.prepare(); // while the volume opens
        }
        StrataMeters meters = StrataMeters.create();
        MountStats stats = MountStats.of(meters);
        StrataFileSystem fs = StrataFileSystem.open(request.source(), request.options(), meters.registry());
        MetricsServer metrics = null;
        try {
            metrics = MetricsServer.start(request.options(), meters).orElse(null);
            FuseSession session = transport.equals(FuseOptions.JNR)
                    ? JnrSession.start(fs, request.source(), mountPoint, request.options(), stats)
                    : KernelTransport.start(fs, request.source(), mountPoint, request.options(), stats);
            awaitReady(mountPoint, session.ended());
            log.info("mounted {} at {} (metastore {}, fuse={}{})", request.source(), mountPoint, fs.metaUrl(),
                    transport, metrics == null ? "" : ", metrics at http://" + request.options().get(MetricsOptions.BIND)
                            + ":" + metrics.port() + "/metrics");
            StrataMount mount = new StrataMount(mountPoint, fs, session, metrics, stats,
                    request.options().get(FuseOptions.CONFINE_JIT));
            mount.warmUp.start();
            return mount;
        } catch (IOException | RuntimeException e) {
            try (fs; MetricsServer m = metrics) {
                throw e;
            }
        }
    }

    /**
     * The mount's warm-up, on a thread of its own once the kernel lists the mount: it runs while the
     * user's first command starts, and a request that comes first just pays its own way as before.
     * The compiler threads are confined first ({@link CompilerThreads}), then the meters of the
     * requests that come first are made and the file system warms up ({@link StrataFileSystem#warmUp}).
     */
    private void warmUp(MountStats stats, boolean confineJit) {
        if (confineJit) {
            compilers = CompilerThreads.confine().orElse(null);
        }
        stats.meters().prepare(session.firstOperations());
        fs.warmUp();
    }

    /** The checks libfuse would otherwise fail with a bare return code. */
    private static void checkMountPoint(Path mountPoint) throws MountException {
        if (!Files.exists(mountPoint)) {
            throw new MountException("mountpoint " + mountPoint + " does not exist; create it with mkdir -p");
        }
        if (!Files.isDirectory(mountPoint)) {
            throw new MountException("mountpoint " + mountPoint + " is not a directory");
        }
        if (MountPoints.isMounted(mountPoint)) {
            throw new MountException("mountpoint " + mountPoint + " is already mounted; unmount it first with"
                    + " strata umount " + mountPoint);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(mountPoint)) {
            if (entries.iterator().hasNext()) {
                throw new MountException("mountpoint " + mountPoint + " is not empty; mount on an empty directory");
            }
        } catch (IOException e) {
            throw new MountException("cannot read mountpoint " + mountPoint + ": " + e.getMessage(), e);
        }
        // Other users need not read /dev/fuse: fusermount3 (setuid root) opens it for them.
        if (!Files.exists(Path.of("/dev/fuse"))) {
            throw new MountException("/dev/fuse is missing; load the fuse module (modprobe fuse)");
        }
    }

    private static void awaitReady(Path mountPoint, CompletableFuture<Void> ended) throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!MountPoints.isMounted(mountPoint)) {
            if (ended.isDone()) {
                String reason = ended.isCompletedExceptionally()
                        ? ended.handle((v, t) -> t.getMessage()).join() : "the FUSE session ended at once";
                throw new MountException("could not mount " + mountPoint + " (" + reason
                        + "); the reason is on the line above in the log");
            }
            if (System.nanoTime() > deadline) {
                throw new MountException("mount at " + mountPoint + " not ready after " + READY_TIMEOUT.toSeconds()
                        + " s");
            }
            try {
                ended.get(20, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // still starting, or failed: the loop tells which
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MountException("interrupted while mounting " + mountPoint);
            }
        }
    }

    public Path mountPoint() {
        return mountPoint;
    }

    /** The metastore URL in effect, to print at mount. */
    public String metaUrl() {
        return fs.metaUrl();
    }

    /** The port of the metrics endpoint, if metrics_port asked for one. */
    public OptionalInt metricsPort() {
        return metrics == null ? OptionalInt.empty() : OptionalInt.of(metrics.port());
    }

    /** The file system behind the mount, for in-process callers and tests. */
    public StrataFileSystem fileSystem() {
        return fs;
    }

    /** Blocks until the file system is unmounted (strata umount, fusermount -u, a signal). */
    public void awaitUnmounted() throws InterruptedException {
        try {
            session.ended().get();
        } catch (java.util.concurrent.ExecutionException e) {
            log.warn("FUSE session at {} ended with a failure", mountPoint, e.getCause());
        }
    }

    /** Unmounts if still mounted, flushes open files, closes the metastore. Idempotent. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (fs; MetricsServer m = metrics) {
            if (!session.ended().isDone() && MountPoints.isMounted(mountPoint)) {
                MountPoints.unmount(mountPoint);
            }
            session.awaitEnd(UNMOUNT_TIMEOUT.toMillis());
            warmUp.join(UNMOUNT_TIMEOUT.toMillis());
            CompilerThreads confined = compilers;
            if (confined != null) {
                confined.close(); // the last in-process mount to close (tests, tools) gives them their CPUs back
            }
            if (!session.ended().isDone()) {
                log.warn("FUSE session at {} still running {} s after unmount", mountPoint,
                        UNMOUNT_TIMEOUT.toSeconds());
            }
            log.info("unmounted {}: {}", mountPoint, session.requestSizes());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MountException("interrupted while unmounting " + mountPoint);
        }
    }
}
