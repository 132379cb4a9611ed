package io.strata.fuse;

import io.strata.client.StrataFileSystem;
import io.strata.fuse.observe.MountStats;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;
import io.strata.core.conf.DataSize;
import io.strata.fuse.kernel.KernelSession;
import io.strata.fuse.kernel.KernelSettings;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Strata's own transport ({@code -o fuse=kernel}): the mount's options turned into kernel settings. */
final class KernelTransport implements FuseSession {
    /** The kernel's largest request: 256 pages (FUSE_MAX_MAX_PAGES). */
    static final int MAX_REQUEST = 1024 * 1024;

    private final KernelSession session;

    private KernelTransport(KernelSession session) {
        this.session = session;
    }

    static KernelTransport start(StrataFileSystem fs, URI source, Path mountPoint, Options options,
                                 MountStats stats) throws IOException {
        KernelSettings settings;
        try {
            settings = settings(source, options);
        } catch (OptionException e) {
            throw new MountException(e.getMessage());
        }
        try {
            KernelSession session = KernelSession.mount(mountPoint, fs, settings, stats);
            BdiReadahead.raise(mountPoint, settings.maxRead());
            return new KernelTransport(session);
        } catch (IOException e) {
            throw new MountException("cannot mount " + mountPoint + ": " + e.getMessage(), e);
        }
    }

    /**
     * Binds libc (jnr-ffi generates its glue classes, ~0.13 s of a fresh JVM) on a thread of its
     * own, so a mount that calls this first overlaps it with opening the volume.
     */
    public static void prepare() {
        Thread thread = new Thread(KernelSession::prepare, "strata-fuse-prepare");
        thread.setDaemon(true);
        thread.start();
    }

    static KernelSettings settings(URI source, Options options) {
        KernelCacheMode cache = KernelCacheMode.from(options);
        return new KernelSettings(FuseArguments.fsName(source), options.get(FuseOptions.ENTRY_TIMEOUT),
                options.get(FuseOptions.ATTR_TIMEOUT), options.get(FuseOptions.NEGATIVE_TIMEOUT),
                cache == KernelCacheMode.KERNEL_CACHE || cache == KernelCacheMode.AUTO_CACHE,
                cache == KernelCacheMode.AUTO_CACHE, cache == KernelCacheMode.DIRECT_IO,
                options.get(FuseOptions.WRITEBACK_CACHE), options.get(FuseOptions.ALLOW_OTHER),
                options.get(io.strata.client.VolumeOptions.READ_ONLY), FuseOptions.kernelMaxRead(options),
                requestSize(options.get(FuseOptions.MAX_WRITE)), options.get(FuseOptions.UID),
                options.get(FuseOptions.GID), options.get(FuseOptions.UMASK), FuseOptions.workers(options),
                options.get(FuseOptions.CLONE_FD), options.get(FuseOptions.SPLICE_READ),
                options.get(FuseOptions.XATTR), options.get(FuseOptions.REHEARSAL));
    }

    /** A max_read or max_write as the kernel is asked for it: at most 1 MiB, whole pages. */
    static int requestSize(DataSize size) {
        return (int) Math.min(size.bytes(), MAX_REQUEST) & ~4095;
    }

    @Override
    public CompletableFuture<Void> ended() {
        return session.ended();
    }

    /** A lookup, a listing, a read and a write (the kernel asks a getxattr before each) of a new mount. */
    @Override
    public List<String> firstOperations() {
        return List.of("lookup", "getattr", "opendir", "readdirplus", "releasedir", "open", "read", "flush",
                "release", "getxattr");
    }

    @Override
    public String requestSizes() {
        return session.requestSizes();
    }

    @Override
    public void awaitEnd(long millis) throws InterruptedException {
        try {
            session.ended().get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // reported by the caller, which checks ended()
        } finally {
            session.close();
        }
    }
}
