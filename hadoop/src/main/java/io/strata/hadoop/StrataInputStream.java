package io.strata.hadoop;

import io.strata.client.StrataFileSystem;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.iostatisticsStore;

/**
 * An open file of the volume: sequential and positioned reads (both into arrays and buffers) on
 * one handle of the client, so every read goes through the volume's readahead and page cache as a
 * FUSE read does. Positioned reads may run from many threads at once; the sequential position is
 * the caller's (Hadoop streams are not shared). Vectored reads are {@link VectoredReads}'s.
 */
final class StrataInputStream extends FSInputStream
        implements ByteBufferReadable, ByteBufferPositionedReadable, StreamCapabilities, IOStatisticsSource {
    private final StrataFileSystem fs;
    private final long fh;
    private final String path;
    private final FileSystem.Statistics statistics;
    private final VectoredReads vectored;
    private final IOStatisticsStore ioStatistics = iostatisticsStore()
            .withCounters(StreamStatisticNames.STREAM_READ_BYTES, StreamStatisticNames.STREAM_READ_OPERATIONS,
                    StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS,
                    StreamStatisticNames.STREAM_READ_VECTORED_OPERATIONS,
                    StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES,
                    StreamStatisticNames.STREAM_READ_VECTORED_COMBINED_RANGES)
            .build();
    /** The size at open, raised when a seek finds the file grew: bounds seeks without asking each time. */
    private volatile long length;
    private long position;
    private volatile boolean closed;

    StrataInputStream(StrataFileSystem fs, long fh, long length, String path, FileSystem.Statistics statistics,
                      VectoredReads vectored) {
        this.fs = fs;
        this.fh = fh;
        this.length = length;
        this.path = path;
        this.statistics = statistics;
        this.vectored = vectored;
    }

    @Override
    public synchronized void seek(long target) throws IOException {
        checkOpen();
        if (target < 0) {
            throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target + ": " + path);
        }
        if (target > length) {
            length = fs.fstat(fh).size(); // it may have grown since the open (an appender's hflush)
            if (target > length) {
                throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target + ": " + path);
            }
        }
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS);
        position = target;
    }

    @Override
    public synchronized long getPos() throws IOException {
        return position;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false; // one copy: the under storage's
    }

    @Override
    public synchronized int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        validatePositionedReadArgs(position, b, off, len);
        int n = read(position, ByteBuffer.wrap(b, off, len));
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public synchronized int read(ByteBuffer buf) throws IOException {
        int n = read(position, buf);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public int read(long at, byte[] b, int off, int len) throws IOException {
        validatePositionedReadArgs(at, b, off, len);
        return read(at, ByteBuffer.wrap(b, off, len));
    }

    /** Reads what is there at {@code at} into {@code buf}, up to its remaining bytes; -1 at end of file. */
    @Override
    public int read(long at, ByteBuffer buf) throws IOException {
        checkOpen();
        if (at < 0) {
            throw new EOFException("Cannot read at a negative position " + at + ": " + path);
        }
        if (!buf.hasRemaining()) {
            return 0;
        }
        int n;
        int limit = buf.limit();
        try {
            n = fs.read(fh, buf, at);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, path);
        } finally {
            buf.limit(limit); // the client lowers it to the end of the file; the caller's buffer keeps its own
        }
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_OPERATIONS);
        if (statistics != null) {
            statistics.incrementReadOps(1);
        }
        if (n <= 0) {
            return -1;
        }
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_BYTES, n);
        if (statistics != null) {
            statistics.incrementBytesRead(n);
        }
        return n;
    }

    @Override
    public void readFully(long at, byte[] b, int off, int len) throws IOException {
        validatePositionedReadArgs(at, b, off, len);
        readFully(at, ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void readFully(long at, ByteBuffer buf) throws IOException {
        long next = at;
        while (buf.hasRemaining()) {
            int n = read(next, buf);
            if (n < 0) {
                throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + ": " + path + " at " + next);
            }
            next += n;
        }
    }

    @Override
    public synchronized int available() throws IOException {
        checkOpen();
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, length - position));
    }

    @Override
    public int minSeekForVectorReads() {
        return vectored.minSeek();
    }

    @Override
    public int maxReadSizeForVectorReads() {
        return vectored.maxReadSize();
    }

    /**
     * Reads the ranges in the background: near ones merged into one read each (as Parquet's and
     * ORC's column chunks come), each range's future completed with its slice.
     */
    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) throws IOException {
        checkOpen();
        VectoredReads.Plan plan = vectored.plan(ranges);
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_VECTORED_OPERATIONS);
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES, ranges.size());
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_READ_VECTORED_COMBINED_RANGES, plan.count());
        vectored.start(plan, this::read, allocate);
    }

    @Override
    public boolean hasCapability(String capability) {
        return switch (capability.toLowerCase(Locale.ROOT)) {
            case StreamCapabilities.READBYTEBUFFER, StreamCapabilities.PREADBYTEBUFFER, StreamCapabilities.IOSTATISTICS,
                    StreamCapabilities.VECTOREDIO -> true;
            default -> false;
        };
    }

    @Override
    public IOStatisticsStore getIOStatistics() {
        return ioStatistics;
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        super.close();
        fs.release(fh);
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
        }
    }

    @Override
    public String toString() {
        return "StrataInputStream{" + path + ", position=" + position + ", " + ioStatistics + "}";
    }
}
