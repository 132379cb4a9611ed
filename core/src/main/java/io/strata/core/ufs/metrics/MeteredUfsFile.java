package io.strata.core.ufs.metrics;

import io.strata.core.buffer.LentBytes;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/** An open under-storage file whose reads, writes and syncs are timed, and their bytes counted. */
final class MeteredUfsFile implements UfsFile {
    private final UfsFile file;
    private final UfsMeters meters;

    MeteredUfsFile(UfsFile file, UfsMeters meters) {
        this.file = file;
        this.meters = meters;
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        int n = meters.timed("read", () -> file.read(dst, offset));
        if (n > 0) {
            meters.bytesRead.increment(n);
        }
        return n;
    }

    @Override
    public LentBytes readRange(long offset, int length) throws IOException {
        LentBytes range = meters.timed("read", () -> file.readRange(offset, length));
        meters.bytesRead.increment(range.remaining());
        return range;
    }

    @Override
    public void willNeed(long offset, long length) {
        file.willNeed(offset, length);
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        int n = src.remaining();
        meters.timed("write", () -> file.write(src, offset));
        meters.bytesWritten.increment(n);
    }

    @Override
    public void truncate(long size) throws IOException {
        meters.timed("truncate", () -> file.truncate(size));
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public void force() throws IOException {
        meters.timed("sync", file::force);
    }

    @Override
    public String version() throws IOException {
        return file.version();
    }

    @Override
    public Optional<UfsStatus> refresh() throws IOException {
        return meters.timed("refresh", file::refresh);
    }

    @Override
    public void close() throws IOException {
        meters.timed("close", file::close);
    }
}
