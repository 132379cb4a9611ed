package io.strata.fuse;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A mounted Strata volume: owns the FUSE session, the file system and the metastore.
 */
public final class StrataMount implements AutoCloseable {
    /**
     * Opens the volume and mounts it; returns once the kernel lists the mount. A failure is a
     * {@link MountException} whose message is one line for the user (libfuse's own reason included).
     */
    public static StrataMount mount(MountRequest request) throws IOException {
        throw new UnsupportedOperationException("in progress");
    }

    public Path mountPoint() {
        throw new UnsupportedOperationException("in progress");
    }

    /** The metastore URL in effect, to print at mount. */
    public String metaUrl() {
        throw new UnsupportedOperationException("in progress");
    }

    /** Blocks until the file system is unmounted (strata umount, fusermount -u, a signal). */
    public void awaitUnmounted() throws InterruptedException {
        throw new UnsupportedOperationException("in progress");
    }

    /** Unmounts if still mounted, flushes open files, closes the metastore. Idempotent. */
    @Override
    public void close() throws IOException {
        throw new UnsupportedOperationException("in progress");
    }
}
