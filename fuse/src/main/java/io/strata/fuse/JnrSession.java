package io.strata.fuse;

import io.strata.client.StrataFileSystem;
import io.strata.fuse.observe.MountStats;
import io.strata.core.conf.OptionException;
import io.strata.core.conf.Options;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The libfuse2 transport through jnr-fuse ({@code -o fuse=jnr}): libfuse's own loop runs blocking
 * on a thread of ours, so a failure to mount reaches {@link #ended()}.
 */
final class JnrSession implements FuseSession {
    private final StrataFuse fuse;
    private final Thread thread;
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final String arguments;

    private JnrSession(StrataFuse fuse, Path mountPoint, String[] arguments) {
        this.fuse = fuse;
        this.arguments = String.join(" ", arguments);
        this.thread = new Thread(() -> {
            try {
                fuse.mount(mountPoint, true, false, arguments);
                ended.complete(null);
            } catch (Throwable t) {
                ended.completeExceptionally(t);
            }
        }, "strata-fuse-session");
        thread.setDaemon(true);
    }

    static JnrSession start(StrataFileSystem fs, URI source, Path mountPoint, Options options, MountStats stats)
            throws MountException {
        String[] arguments;
        try {
            arguments = FuseArguments.build(source, options);
        } catch (OptionException e) {
            throw new MountException(e.getMessage());
        }
        StrataFuse fuse;
        try {
            fuse = new StrataFuse(fs, stats);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new MountException("libfuse2 is not installed (" + e.getMessage()
                    + "); install it with: apt-get install libfuse2, or mount with -o fuse=kernel", e);
        }
        JnrSession session = new JnrSession(fuse, mountPoint, arguments);
        session.thread.start();
        return session;
    }

    @Override
    public CompletableFuture<Void> ended() {
        return ended;
    }

    @Override
    public List<String> firstOperations() {
        return List.of("open", "read"); // the operations StrataFuse meters that a first read serves
    }

    @Override
    public String requestSizes() {
        return fuse.requestSizes() + " (libfuse2 via jnr-fuse, " + arguments + ")";
    }

    @Override
    public void awaitEnd(long millis) throws InterruptedException {
        thread.join(millis);
    }
}
