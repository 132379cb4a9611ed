package io.strata.core.ufs.s3;

import io.strata.core.buffer.LentBytes;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One handle on an open object: the access mode and the open/closed state of this handle; the
 * data and its mode (remote, streaming, staged) live in the {@link OpenObject} that every handle
 * on the key shares, so a reader sees what a writer on another handle wrote.
 */
final class S3UfsFile implements UfsFile {
    private final S3UnderFileSystem ufs;
    private final OpenObject object;
    private final boolean writable;
    private volatile boolean closed;

    S3UfsFile(S3UnderFileSystem ufs, OpenObject object, boolean writable) {
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.object = requireNonNull(object, "object is null");
        this.writable = writable;
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        checkOpen();
        return object.read(dst, offset);
    }

    /** A view of the readahead's bytes when the object is read remotely, else a copy. */
    @Override
    public LentBytes readRange(long offset, int length) throws IOException {
        checkOpen();
        LentBytes view = object.readRemoteRange(offset, length);
        return view != null ? view : UfsFile.super.readRange(offset, length);
    }

    @Override
    public void willNeed(long offset, long length) {
        object.willNeed(offset, length);
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        checkWritable("write");
        object.write(src, offset);
    }

    @Override
    public void truncate(long size) throws IOException {
        checkWritable("truncate");
        object.truncate(size);
    }

    @Override
    public long size() throws IOException {
        checkOpen();
        return object.size();
    }

    @Override
    public void force() throws IOException {
        checkOpen();
        object.force();
    }

    @Override
    public Optional<UfsStatus> refresh() throws IOException {
        return object.refresh();
    }

    @Override
    public String version() throws IOException {
        checkOpen();
        return object.version();
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        object.handleClosed(writable, ufs.release(object));
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("'" + object.path() + "': closed");
        }
    }

    private void checkWritable(String operation) throws IOException {
        checkOpen();
        if (!writable) {
            throw new FsException(FsError.EBADF, operation + " '" + object.path() + "': opened read-only");
        }
    }

    @Override
    public String toString() {
        return "S3UfsFile[" + object.path() + (writable ? ", rw]" : ", r]");
    }
}
