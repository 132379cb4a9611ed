package io.strata.hadoop;

import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.impl.CombinedFileRange;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * Vectored reads ({@code readVectored}, as Parquet and ORC read column chunks): the ranges sorted,
 * those less than {@code minSeek} apart merged into one read of at most {@code maxReadSize} (a
 * gap costs less than another request, and the page cache fetches whole pages anyway), each read
 * run on the volume's pool, and every range's future completed with its own slice. A range past
 * the end of the file fails alone, with an {@link EOFException}.
 */
final class VectoredReads {
    /** Reads at an offset into a buffer, up to its remaining bytes; -1 at end of file. */
    @FunctionalInterface
    interface PositionedReader {
        int read(long offset, ByteBuffer dst) throws IOException;
    }

    /** The reads one call makes: each merged range and the ranges it serves. */
    record Plan(List<CombinedFileRange> reads) {
        int count() {
            return reads.size();
        }
    }

    private final Executor pool;
    private final int minSeek;
    private final int maxReadSize;

    VectoredReads(Executor pool, int minSeek, int maxReadSize) {
        this.pool = pool;
        this.minSeek = minSeek;
        this.maxReadSize = maxReadSize;
    }

    int minSeek() {
        return minSeek;
    }

    int maxReadSize() {
        return maxReadSize;
    }

    /** Checks the ranges (none negative, none overlapping) and merges them; fails before any read starts. */
    Plan plan(List<? extends FileRange> ranges) throws EOFException {
        List<? extends FileRange> sorted = VectoredReadUtils.validateAndSortRanges(ranges, Optional.empty());
        return new Plan(VectoredReadUtils.mergeSortedRanges(sorted, 1, minSeek, maxReadSize));
    }

    /** Gives every range its future and starts the reads. */
    void start(Plan plan, PositionedReader reader, IntFunction<ByteBuffer> allocate) {
        for (CombinedFileRange read : plan.reads()) {
            read.getUnderlying().forEach(range -> range.setData(new CompletableFuture<>()));
            pool.execute(() -> run(read, reader, allocate));
        }
    }

    private static void run(CombinedFileRange read, PositionedReader reader, IntFunction<ByteBuffer> allocate) {
        List<FileRange> ranges = read.getUnderlying();
        try {
            if (ranges.size() == 1) {
                FileRange range = ranges.get(0); // nothing merged: straight into the caller's buffer
                ByteBuffer data = allocate.apply(range.getLength());
                int n = fill(reader, range.getOffset(), data);
                complete(range, data.flip(), n);
                return;
            }
            ByteBuffer data = ByteBuffer.allocate(read.getLength());
            int n = fill(reader, read.getOffset(), data);
            data.flip();
            for (FileRange range : ranges) {
                long end = range.getOffset() + range.getLength() - read.getOffset();
                if (end > n) {
                    complete(range, null, -1);
                    continue;
                }
                ByteBuffer slice = allocate.apply(range.getLength());
                slice.put(VectoredReadUtils.sliceTo(data, read.getOffset(), range)).flip();
                complete(range, slice, range.getLength());
            }
        } catch (IOException | RuntimeException | Error e) {
            ranges.forEach(range -> range.getData().completeExceptionally(e));
        }
    }

    /** Reads until {@code dst} is full or the file ends; returns the bytes read. */
    private static int fill(PositionedReader reader, long offset, ByteBuffer dst) throws IOException {
        int total = 0;
        while (dst.hasRemaining()) {
            int n = reader.read(offset + total, dst);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    private static void complete(FileRange range, ByteBuffer data, int read) {
        if (read < range.getLength()) {
            range.getData().completeExceptionally(new EOFException("range [" + range.getOffset() + ", "
                    + (range.getOffset() + range.getLength()) + ") goes past the end of the file"));
        } else {
            range.getData().complete(data);
        }
    }
}
