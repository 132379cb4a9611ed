package io.strata.core.ufs.s3;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * A new object written from offset 0 onwards, uploaded as a multipart upload while it is written.
 *
 * <p>Bytes collect in a buffer for the current part (grown as needed, so a small file holds only
 * its own bytes; from the second part on, part-sized at once); a full part is handed to the SDK
 * and the writer goes on with the next. The part size grows with the file ({@link PartSizes}). At
 * most {@code concurrency} parts, and at most {@code concurrency} first-part sizes of bytes, are in
 * flight; a writer beyond that waits for one to finish (backpressure, so memory stays bounded
 * whatever the file size). The multipart upload is created with the first full part: a file that
 * never fills one is a single PutObject at {@link #finish()}.
 *
 * <p>Writes may also land anywhere in the part still being filled (a rewrite of recent bytes, a
 * small hole), which stays in memory; anything before it is out of reach and the caller switches
 * to a staged file. A truncate or fallocate past the bytes written (as fio and databases make a
 * file's full size before writing it) is a zero tail: a length, not zeros in memory, which writes
 * continuing the stream overwrite and {@link #finish()} sends as zeros if any of it is left.
 *
 * <p>A part that fails (after the SDK's retries) keeps its bytes: further writes fail with its
 * error, and {@link #finish()} uploads the failed parts again before completing, so a transient
 * outage surfaces as an error on write/flush/fsync and a later flush can still succeed. Not
 * thread-safe: the owning file serializes calls; only part completions arrive on SDK threads.
 */
final class StreamingUpload {
    private static final int INITIAL_BUFFER = 64 * 1024;
    /** The longest array the JVM allocates everywhere (the JDK's own soft limit). */
    private static final int LARGEST_ARRAY = Integer.MAX_VALUE - 8;
    private static final byte[] EMPTY = new byte[0];

    private final S3Objects objects;
    private final String key;
    private final String path;
    private final long firstPartSize;
    private final int concurrency;
    private final long inFlightBudget;

    private byte[] buffer = EMPTY;
    private int bufferLength;
    private long bufferStart;
    /** The content's end when it was extended past the bytes written (zeros up to here); 0 for none. */
    private long zeroTailEnd;
    private int nextPart = 1;
    private String uploadId;

    /** Guarded by this: parts on their way, done, and failed (with their bytes). */
    private final Map<Integer, CompletableFuture<Void>> inFlight = new HashMap<>();
    private long inFlightBytes;
    private final TreeMap<Integer, CompletedPart> completed = new TreeMap<>();
    private final TreeMap<Integer, ByteBuffer> failed = new TreeMap<>();
    private Throwable failure;
    /**
     * Arrays of parts that were sent, for the next parts. Allocated anew, each part-sized array
     * was zeroed first and, alive until its part was sent, outlived young collections, so the
     * old generation filled with them: collections took a tenth of a sequential writer's daemon
     * CPU, half of it in full ones whose pauses the writers waited through (docs/PERFORMANCE.md,
     * forty-second round).
     */
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();

    StreamingUpload(S3Objects objects, String key, String path, long firstPartSize, int concurrency) {
        this.objects = requireNonNull(objects, "objects is null");
        this.key = requireNonNull(key, "key is null");
        this.path = requireNonNull(path, "path is null");
        // Options hold the first part to S3's 5 MiB minimum; tests of the part logic use smaller ones.
        if (firstPartSize < 1) {
            throw new IllegalArgumentException("part size is not positive: " + firstPartSize);
        }
        this.firstPartSize = firstPartSize;
        this.concurrency = concurrency;
        this.inFlightBudget = firstPartSize * concurrency;
    }

    /** The end of the file: the bytes written, or the zero tail after them. */
    long size() {
        return Math.max(writtenEnd(), zeroTailEnd);
    }

    /** The end of the bytes written (in memory or sent): where a sequential writer goes on. */
    long writtenEnd() {
        return bufferStart + bufferLength;
    }

    /** The first offset still in memory: writes and truncates from here on stay in this upload. */
    long bufferStart() {
        return bufferStart;
    }

    /** Whether any part has left memory (then the content can no longer be read back from here). */
    boolean uploadedAny() {
        return nextPart > 1;
    }

    /**
     * Writes {@code src} at {@code offset}, which must not be before bufferStart; zeros in memory
     * fill a gap after the bytes written (callers keep it small). A full part is sent when the next byte arrives (or at {@link #finish()}), so a write of
     * up to one part that fails (an earlier part failed, no upload could be created) has changed
     * nothing.
     */
    void write(ByteBuffer src, long offset) throws IOException {
        if (offset < bufferStart) {
            throw new IllegalArgumentException("offset " + offset + " is before the buffer at " + bufferStart);
        }
        checkFailure();
        if (offset > writtenEnd()) {
            fillZeros(offset - writtenEnd());
        }
        long position = offset;
        while (src.hasRemaining()) {
            long partSize = PartSizes.partSize(firstPartSize, Math.min(nextPart, PartSizes.MAX_PARTS));
            if (position - bufferStart == partSize) {
                if (nextPart == PartSizes.MAX_PARTS) {
                    throw new FsException(FsError.EFBIG, "write '" + path + "': past the most an S3 object can hold");
                }
                submitBuffer();
                continue;
            }
            int at = (int) (position - bufferStart);
            int n = (int) Math.min(src.remaining(), partSize - at);
            ensureCapacity(at + n, partSize);
            src.get(buffer, at, n);
            bufferLength = Math.max(bufferLength, at + n);
            position += n;
        }
    }

    /**
     * Cuts the content, or extends it with a zero tail (no memory); {@code newSize} must not be
     * before bufferStart.
     */
    void truncate(long newSize) throws IOException {
        if (newSize < bufferStart) {
            throw new IllegalArgumentException("size " + newSize + " is before the buffer at " + bufferStart);
        }
        checkFailure();
        if (newSize <= writtenEnd()) {
            int keep = (int) (newSize - bufferStart);
            Arrays.fill(buffer, keep, bufferLength, (byte) 0);
            bufferLength = keep;
            zeroTailEnd = 0;
        } else {
            zeroTailEnd = newSize;
        }
    }

    /** Copies the content at {@code offset} into {@code dst}; only while nothing was uploaded. */
    int readBuffered(ByteBuffer dst, long offset) {
        if (uploadedAny()) {
            throw new IllegalStateException("parts already uploaded");
        }
        if (offset >= size()) {
            return -1;
        }
        if (offset < bufferLength) {
            int n = (int) Math.min(dst.remaining(), bufferLength - offset);
            dst.put(buffer, (int) offset, n);
            return n;
        }
        int n = (int) Math.min(dst.remaining(), size() - offset); // the zero tail
        for (int i = 0; i < n; i++) {
            dst.put((byte) 0);
        }
        return n;
    }

    /** The bytes written, all in memory: only while nothing was uploaded (the content but its zero tail). */
    ByteBuffer buffered() {
        if (uploadedAny()) {
            throw new IllegalStateException("parts already uploaded");
        }
        return ByteBuffer.wrap(buffer, 0, bufferLength).asReadOnlyBuffer();
    }

    /**
     * Makes the object: a PutObject if no part was uploaded, else the last part and
     * CompleteMultipartUpload, after uploading again any part that had failed. Returns the ETag.
     * On failure the state is kept, so calling again retries what is missing.
     */
    String finish() throws IOException {
        String what = "upload '" + path + "'";
        if (zeroTailEnd > writtenEnd()) {
            fillZeros(zeroTailEnd - writtenEnd());
        }
        zeroTailEnd = 0;
        if (!uploadedAny()) {
            return objects.put(key, ByteBuffer.wrap(buffer, 0, bufferLength), what);
        }
        if (bufferLength > 0) {
            submitBuffer();
        }
        awaitAll();
        List<Map.Entry<Integer, ByteBuffer>> retry;
        synchronized (this) {
            retry = new ArrayList<>(failed.entrySet());
            failed.clear();
            failure = null;
        }
        for (Map.Entry<Integer, ByteBuffer> part : retry) {
            start(part.getKey(), part.getValue());
        }
        awaitAll();
        checkFailure();
        List<CompletedPart> parts;
        synchronized (this) {
            parts = new ArrayList<>(completed.values());
        }
        String etag = objects.completeMultipartUpload(key, uploadId, parts, what);
        buffer = EMPTY;
        synchronized (this) {
            spare.clear();
        }
        return etag;
    }

    /** Drops everything: parts in flight are abandoned and the multipart upload aborted (best effort). */
    void abort() {
        List<CompletableFuture<Void>> pending;
        synchronized (this) {
            pending = new ArrayList<>(inFlight.values());
            failed.clear();
        }
        pending.forEach(CompletableFuture::join);
        synchronized (this) {
            spare.clear();
        }
        if (uploadId != null) {
            objects.abortMultipartUpload(key, uploadId).join();
            uploadId = null;
        }
        buffer = EMPTY;
        bufferLength = 0;
        zeroTailEnd = 0;
    }

    /** The first part failure, as an IOException, if any part failed. */
    void checkFailure() throws IOException {
        Throwable first;
        int partNumber;
        synchronized (this) {
            first = failure;
            partNumber = failed.isEmpty() ? 0 : failed.firstKey();
        }
        if (first != null) {
            throw S3Errors.translate(first, "upload '" + path + "' (part " + partNumber + ")");
        }
    }

    private void fillZeros(long count) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(count, 1 << 20));
        long left = count;
        while (left > 0) {
            zeros.clear().limit((int) Math.min(left, zeros.capacity()));
            left -= zeros.remaining();
            write(zeros, writtenEnd());
        }
    }

    private void ensureCapacity(int needed, long partSize) {
        if (needed <= buffer.length) {
            return;
        }
        if (uploadedAny() && partSize <= LARGEST_ARRAY) {
            // Past the first part the file is large and its parts are whole: a part-sized buffer
            // at once, not one copied through every doubling (~1.9x its bytes, and as much garbage).
            byte[] whole = partBuffer((int) partSize);
            System.arraycopy(buffer, 0, whole, 0, bufferLength);
            buffer = whole;
            return;
        }
        long grown = Math.max(needed, Math.max(INITIAL_BUFFER, (long) buffer.length * 2));
        buffer = Arrays.copyOf(buffer, (int) Math.min(grown, partSize));
    }

    /**
     * An array for a whole part: one a sent part left, else a new one. Its bytes past what is
     * written are never read: gaps are written as zeros, and a part is sent up to its length.
     */
    private byte[] partBuffer(int partSize) {
        synchronized (this) {
            byte[] recycled = spare.poll();
            if (recycled != null && recycled.length == partSize) {
                return recycled;
            }
        }
        return new byte[partSize]; // the first parts, or the part size grew
    }

    private void submitBuffer() throws IOException {
        int partNumber = nextPart;
        awaitCapacity(bufferLength);
        if (uploadId == null) {
            uploadId = S3Errors.join(objects.createMultipartUpload(key), "upload '" + path + "'");
        }
        ByteBuffer data = ByteBuffer.wrap(buffer, 0, bufferLength);
        bufferStart += bufferLength;
        nextPart++;
        buffer = EMPTY;
        bufferLength = 0;
        start(partNumber, data);
    }

    private void start(int partNumber, ByteBuffer data) {
        CompletableFuture<Void> tracked = new CompletableFuture<>();
        int length = data.remaining();
        synchronized (this) {
            inFlight.put(partNumber, tracked);
            inFlightBytes += length;
        }
        objects.uploadPart(key, uploadId, partNumber, data.duplicate()).whenComplete((part, error) -> {
            synchronized (this) {
                inFlight.remove(partNumber);
                inFlightBytes -= length;
                if (error == null) {
                    completed.put(partNumber, part);
                    if (data.hasArray() && spare.size() < concurrency) {
                        spare.push(data.array()); // the request is over: the SDK reads it no more
                    }
                } else {
                    failed.put(partNumber, data);
                    if (failure == null) {
                        failure = error;
                    }
                }
            }
            tracked.complete(null);
        });
    }

    /** Waits until one more part of {@code length} bytes fits the in-flight limits. */
    private void awaitCapacity(long length) {
        while (true) {
            CompletableFuture<?>[] pending;
            synchronized (this) {
                boolean fits = inFlight.size() < concurrency
                        && (inFlight.isEmpty() || inFlightBytes + length <= inFlightBudget);
                if (fits) {
                    return;
                }
                pending = inFlight.values().toArray(new CompletableFuture<?>[0]);
            }
            CompletableFuture.anyOf(pending).join();
        }
    }

    private void awaitAll() {
        CompletableFuture<?>[] pending;
        synchronized (this) {
            pending = inFlight.values().toArray(new CompletableFuture<?>[0]);
        }
        CompletableFuture.allOf(pending).join();
    }
}
