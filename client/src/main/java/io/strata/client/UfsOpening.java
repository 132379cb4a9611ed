package io.strata.client;

import io.strata.core.conf.Options;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.core.ufs.UnderFileSystems;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * An under storage being opened on a thread of its own while the caller opens the rest of the
 * volume. The caller either takes it ({@link #await}) or closes the opening, which closes the
 * storage once it is open, so a failure elsewhere never leaks it.
 */
final class UfsOpening implements AutoCloseable {
    private final CompletableFuture<UnderFileSystem> opened = new CompletableFuture<>();
    private volatile boolean taken;

    private UfsOpening() {}

    /** Opens {@code source}, which must open as {@code expected} (its normalized URI), on a thread of its own. */
    static UfsOpening start(URI source, URI expected, Options options) {
        UfsOpening opening = new UfsOpening();
        Thread thread = new Thread(() -> {
            try {
                UnderFileSystem ufs = UnderFileSystems.open(source, options);
                if (!ufs.uri().equals(expected)) {
                    ufs.close();
                    throw new IllegalStateException("the under storage opened as " + ufs.uri() + ", not " + expected);
                }
                opening.opened.complete(ufs);
            } catch (IOException e) {
                opening.opened.completeExceptionally(new UncheckedIOException(e));
            } catch (RuntimeException | Error e) {
                opening.opened.completeExceptionally(e);
            }
        }, "strata-open-ufs");
        thread.setDaemon(true);
        thread.start();
        return opening;
    }

    /** The open storage, now the caller's to close; or the failure that opening it ended with. */
    UnderFileSystem await() throws IOException {
        UnderFileSystem ufs = join();
        taken = true;
        return ufs;
    }

    private UnderFileSystem join() throws IOException {
        try {
            return opened.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while opening the under storage");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw (Error) cause;
        }
    }

    /** Runs {@code action} with the storage once it is open (at once if it is), on the opening's thread. */
    void whenOpened(Consumer<UnderFileSystem> action) {
        opened.thenAccept(action);
    }

    /** Closes the storage unless the caller took it; waits for an opening still under way. */
    @Override
    public void close() throws IOException {
        if (taken) {
            return;
        }
        UnderFileSystem ufs;
        try {
            ufs = join();
        } catch (IOException | RuntimeException e) {
            return; // it never opened: nothing to close, and the caller has its own failure to report
        }
        ufs.close();
    }
}
