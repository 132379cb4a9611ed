package io.strata.core.cache;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which of a page file's chunks are known to match their checksums: every chunk of a page the
 * daemon wrote itself (its checksums were taken from the bytes it wrote), and each chunk of a page
 * it found on disk once a read has checked it. A checked chunk is lent from then on without being
 * read through the JVM again ({@link PageRegion}). A restart starts over with nothing checked, so
 * a page file torn by a crash is still caught on its first read. Safe for concurrent use; a mark
 * is never lost once {@link #mark} returns.
 */
final class CheckedChunks {
    private final int count;
    private final AtomicLongArray bits;

    CheckedChunks(int count) {
        this.count = count;
        this.bits = new AtomicLongArray((count + 63) / 64);
    }

    /** A set of {@code count} chunks, all checked. */
    static CheckedChunks all(int count) {
        CheckedChunks chunks = new CheckedChunks(count);
        if (count > 0) {
            chunks.mark(0, count - 1);
        }
        return chunks;
    }

    /** Marks chunks {@code first} to {@code last}, both included, as checked. */
    void mark(int first, int last) {
        for (int c = first; c <= last; c++) {
            long bit = 1L << (c & 63);
            int word = c >>> 6;
            long now = bits.get(word);
            while ((now & bit) == 0 && !bits.compareAndSet(word, now, now | bit)) {
                now = bits.get(word);
            }
        }
    }

    /** The first unchecked chunk in {@code [from, last]}, or {@code last + 1} if all are checked. */
    int firstUnchecked(int from, int last) {
        for (int c = from; c <= last; c++) {
            if (!checked(c)) {
                return c;
            }
        }
        return last + 1;
    }

    /** The last chunk of the run of unchecked chunks that starts at {@code from}, at most {@code last}. */
    int lastUnchecked(int from, int last) {
        int c = from;
        while (c < last && !checked(c + 1)) {
            c++;
        }
        return c;
    }

    boolean checked(int chunk) {
        return chunk < count && (bits.get(chunk >>> 6) & (1L << (chunk & 63))) != 0;
    }
}
