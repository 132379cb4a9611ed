package io.strata.core.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.strata.core.concurrent.Holders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Page files held open for reading, up to a bound, so that a read of part of a page costs one
 * {@code pread} and not an open, a {@code pread} and a close. A 4 KiB random read over pages on
 * disk spent a tenth of the daemon's CPU opening and closing the page file (path lookups through
 * the fan-out directory included).
 *
 * <p>A handle is shared by the readers of one file and counts them: a handle dropped from the
 * bound, or {@linkplain #forget forgotten} because its file was deleted, closes when its last
 * reader is done, never under one. Its owner forgets a page file <em>after</em> deleting it, so a
 * handle opened concurrently either failed to open or was dropped by the forget; none outlives
 * the delete in the bound, keeping the deleted file's blocks allocated.
 */
final class OpenPageFiles implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OpenPageFiles.class);

    private final Cache<Path, Handle> handles;

    /** @param maximum how many page files may be held open at once (each is a file descriptor) */
    OpenPageFiles(int maximum) {
        handles = Caffeine.newBuilder()
                .maximumSize(maximum)
                // Closing is cheap and must not wait for a pool: run it on the thread that removed the handle.
                .executor(Runnable::run)
                .removalListener((Path path, Handle handle, RemovalCause cause) -> {
                    if (handle != null) {
                        handle.release();
                    }
                })
                .build();
    }

    /** A handle on the page file at {@code path}, held for the caller until it closes it. */
    Handle open(Path path) throws IOException {
        while (true) {
            Handle handle;
            try {
                handle = handles.get(path, Handle::open);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            if (handle.retain()) {
                return handle;
            }
            handles.asMap().remove(path, handle); // removed and closed between the get and the retain
        }
    }

    /** Forgets the page file at {@code path}, deleted by the caller; its handle closes when its readers are done. */
    void forget(Path path) {
        handles.invalidate(path);
    }

    /** How many page files are held open by the bound (not counting ones only readers still hold). */
    long size() {
        handles.cleanUp();
        return handles.estimatedSize();
    }

    @Override
    public void close() {
        handles.invalidateAll();
        handles.cleanUp();
    }

    /** One open page file and how many hold it: its readers, plus one while it is in the bound. */
    static final class Handle implements AutoCloseable {
        private final Path path;
        private final FileChannel channel;
        private final Holders holders = new Holders(this::closeChannel);

        private Handle(Path path, FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        private static Handle open(Path path) {
            try {
                return new Handle(path, FileChannel.open(path, StandardOpenOption.READ));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        FileChannel channel() {
            return channel;
        }

        /** Adds a holder, unless the last one already let go (the channel is closed). */
        private boolean retain() {
            return holders.retain();
        }

        private void release() {
            holders.release();
        }

        private void closeChannel() {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("closing page file {}: {}", path, e.toString());
            }
        }

        /** Lets go of the caller's hold. */
        @Override
        public void close() {
            release();
        }
    }
}
