package io.strata.core.readahead;

import java.util.concurrent.CompletableFuture;

/**
 * An asynchronous ranged read of one version of one object: the fetcher of the read path. The S3
 * under storage implements it with a conditional ranged GET on the SDK's async client (no thread
 * waits for the transfer); tests with fakes that count or hold requests.
 */
@FunctionalInterface
public interface RangeFetcher {
    /**
     * Starts fetching {@code length} bytes at {@code offset}. The future completes with those bytes
     * in blocks of {@code blockSize} on the file's block grid ({@link FetchedRange#allocate}), fewer
     * only at the end of the object, or fails with the {@link java.io.IOException} the read should
     * report. Cancelling the future abandons the transfer.
     */
    CompletableFuture<FetchedRange> fetch(long offset, int length, int blockSize);
}
