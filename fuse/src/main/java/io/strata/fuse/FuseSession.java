package io.strata.fuse;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A running transport between the kernel and the file system, from mount to unmount. */
interface FuseSession {
    /** Completes (normally or not) when the transport stops serving: the file system was unmounted. */
    CompletableFuture<Void> ended();

    /** The operations, as metered, that nearly every session serves first: a mount makes their meters ahead. */
    List<String> firstOperations();

    /** The largest requests seen, for the unmount log line. */
    String requestSizes();

    /** Waits up to {@code millis} for the transport to stop after an unmount, then releases it. */
    void awaitEnd(long millis) throws InterruptedException;
}
