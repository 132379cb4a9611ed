package io.strata.hadoop;

import io.strata.client.StrataFileSystem;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Locale;

import static org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding.iostatisticsStore;

/**
 * A file being written through one writable handle of the client, from {@code start} on (0 for a
 * new or overwritten file, the size for an append). Small writes gather in a buffer so that each
 * call into the client moves a useful amount. {@link #hflush} and {@link #hsync} are fsync: the
 * data is in the under storage and the size in the metastore, so every client sees it. Not shared
 * between threads, as Hadoop's output streams are not.
 */
final class StrataOutputStream extends OutputStream implements Syncable, StreamCapabilities, IOStatisticsSource {
    static final int BUFFER_SIZE = 256 << 10;

    private final StrataFileSystem fs;
    private final long fh;
    private final String path;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE);
    private final IOStatisticsStore ioStatistics = iostatisticsStore()
            .withCounters(StreamStatisticNames.STREAM_WRITE_BYTES, StreamStatisticNames.STREAM_WRITE_TOTAL_DATA)
            .build();
    /** Where the buffer's first byte goes. */
    private long position;
    private boolean closed;

    StrataOutputStream(StrataFileSystem fs, long fh, long start, String path) {
        this.fs = fs;
        this.fh = fh;
        this.position = start;
        this.path = path;
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        if (!buffer.hasRemaining()) {
            drain();
        }
        buffer.put((byte) b);
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_WRITE_BYTES);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        if (len > buffer.remaining()) {
            drain();
        }
        if (len >= buffer.capacity()) {
            send(ByteBuffer.wrap(b, off, len)); // big enough to go on its own
        } else {
            buffer.put(b, off, len);
        }
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_WRITE_BYTES, len);
    }

    /** The buffer goes to the client; nothing is recorded yet. stream_write_bytes counts bytes taken, total_data bytes sent. */
    @Override
    public void flush() throws IOException {
        checkOpen();
        drain();
    }

    @Override
    public void hflush() throws IOException {
        hsync();
    }

    @Override
    public void hsync() throws IOException {
        checkOpen();
        drain();
        try {
            fs.fsync(fh);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, path);
        }
    }

    /** Records the file (size, mtime, its data in the under storage) and lets go of the handle. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            drain();
            fs.flush(fh);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, path);
        } finally {
            fs.release(fh);
        }
    }

    private void drain() throws IOException {
        if (buffer.position() > 0) {
            send(buffer.flip());
            buffer.clear();
        }
    }

    private void send(ByteBuffer data) throws IOException {
        int n = data.remaining();
        try {
            fs.write(fh, data, position);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, path);
        }
        position += n;
        ioStatistics.incrementCounter(StreamStatisticNames.STREAM_WRITE_TOTAL_DATA, n);
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
        }
    }

    @Override
    public boolean hasCapability(String capability) {
        return switch (capability.toLowerCase(Locale.ROOT)) {
            // "hflush": StreamCapabilities.HFLUSH, deprecated there but still what callers ask
            case "hflush", StreamCapabilities.HSYNC, StreamCapabilities.IOSTATISTICS -> true;
            default -> false;
        };
    }

    @Override
    public IOStatisticsStore getIOStatistics() {
        return ioStatistics;
    }

    @Override
    public String toString() {
        return "StrataOutputStream{" + path + ", " + ioStatistics + "}";
    }
}
