package io.strata.core.ufs.s3;

import io.strata.core.buffer.LentBytes;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.readahead.Prefetcher;
import io.strata.core.ufs.UfsStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import static java.util.Objects.requireNonNull;

/**
 * The state of one open object, shared by every {@link S3UfsFile} handle open on its key (as
 * handles of a local file share its inode), in one of three modes (see the package documentation):
 *
 * <ul>
 *   <li>{@code REMOTE}: an object as it is in S3; reads are ranged GETs of its ETag.</li>
 *   <li>{@code STREAMING}: a new object being written front to back ({@link StreamingUpload}).</li>
 *   <li>{@code STAGED}: a local copy changed in place ({@link StagedFile}), uploaded whole.</li>
 * </ul>
 *
 * <p>A created file starts STREAMING; an opened one REMOTE. The first write that streaming cannot
 * take (before the part in memory), and the first change to an opened object, switch to STAGED;
 * truncating an opened object to 0 (open with O_TRUNC) starts STREAMING instead. {@link #force()},
 * {@link #version()} and {@link #close()} upload what changed; after that a STREAMING file is REMOTE
 * (the new object), a STAGED one stays STAGED.
 *
 * <p>REMOTE reads go through the volume's readahead engine: a {@link Prefetcher} over ranged GETs
 * of the ETag, so the readahead never serves bytes of another version.
 *
 * <p>Locking: reads and staged writes share a read lock (positional I/O runs concurrently);
 * everything that changes the mode, streams, truncates or uploads holds the write lock.
 */
final class OpenObject {
    private static final Logger log = LoggerFactory.getLogger(OpenObject.class);
    /** The largest hole a streaming write may leave before it (filled with zeros in memory). */
    private static final long MAX_STREAMING_GAP = 1 << 20;

    private enum Mode { REMOTE, STREAMING, STAGED, CLOSED }

    private final S3UnderFileSystem ufs;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    /** The rest is guarded by the lock; changed only under its write lock. */
    private String path;
    private String key;
    private Mode mode;
    /** The object's ETag as last seen or uploaded; null while a created file was never uploaded. */
    private String etag;
    /** REMOTE: the object's size. */
    private long remoteSize;
    /** Changes not yet uploaded. Set under the read lock by staged writes, cleared under the write lock. */
    private volatile boolean modified;
    /** The object was deleted or replaced under this handle: nothing is uploaded any more. */
    private boolean detached;
    private StreamingUpload upload;
    private StagedFile staged;
    /**
     * REMOTE: the readahead engine's reader of this key and ETag, made at the first read (under the
     * read lock, so by {@link #remoteLock}) and closed whenever the key, the version or the mode
     * changes (under the write lock), dropping its buffers.
     */
    private Prefetcher remote;
    private final Object remoteLock = new Object();
    /** Open handles; guarded by the storage's table of open objects. */
    int handles;

    private OpenObject(S3UnderFileSystem ufs, String path, String key) {
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.path = requireNonNull(path, "path is null");
        this.key = requireNonNull(key, "key is null");
    }

    /** An existing object of {@code size} bytes at version {@code etag}. */
    static OpenObject existing(S3UnderFileSystem ufs, String path, String key, String etag, long size) {
        OpenObject file = new OpenObject(ufs, path, key);
        file.mode = Mode.REMOTE;
        file.etag = requireNonNull(etag, "etag is null");
        file.remoteSize = size;
        return file;
    }

    /** A new, empty object (replacing any at {@code key} once uploaded). */
    static OpenObject created(S3UnderFileSystem ufs, String path, String key) {
        OpenObject file = new OpenObject(ufs, path, key);
        file.mode = Mode.STREAMING;
        file.upload = ufs.newUpload(key, path);
        file.modified = true;
        return file;
    }

    String key() {
        lock.readLock().lock();
        try {
            return key;
        } finally {
            lock.readLock().unlock();
        }
    }

    int read(ByteBuffer dst, long offset) throws IOException {
        checkOffset(offset);
        if (!dst.hasRemaining()) {
            return 0;
        }
        lock.readLock().lock();
        try {
            checkOpen();
            if (mode != Mode.STREAMING || !upload.uploadedAny()) {
                return readLocked(dst, offset);
            }
        } finally {
            lock.readLock().unlock();
        }
        lock.writeLock().lock();
        try {
            checkOpen();
            if (mode == Mode.STREAMING && upload.uploadedAny()) {
                // Parts already left memory and S3 cannot read an unfinished upload: finish it, stage it.
                toStaged();
            }
            return readLocked(dst, offset);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Up to {@code length} bytes at {@code offset} from the readahead ({@link Prefetcher#readRange}:
     * a view of its buffer where it can), or null when the object is not read remotely (it is
     * being written or staged).
     */
    LentBytes readRemoteRange(long offset, int length) throws IOException {
        checkOffset(offset);
        lock.readLock().lock();
        try {
            checkOpen();
            if (mode != Mode.REMOTE) {
                return null;
            }
            if (offset >= remoteSize) {
                return LentBytes.empty();
            }
            return remoteReader().readRange(offset, length);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Passes {@link Prefetcher#willNeed} on while the object is read remotely; otherwise nothing to fetch. */
    void willNeed(long offset, long length) {
        lock.readLock().lock();
        try {
            if (mode == Mode.REMOTE && offset < remoteSize) {
                remoteReader().willNeed(offset, length);
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    private int readLocked(ByteBuffer dst, long offset) throws IOException {
        return switch (mode) {
            case REMOTE -> readRemote(dst, offset);
            case STREAMING -> upload.readBuffered(dst, offset);
            case STAGED -> staged.read(dst, offset);
            case CLOSED -> throw new IOException("read '" + path + "': closed");
        };
    }

    private int readRemote(ByteBuffer dst, long offset) throws IOException {
        if (offset >= remoteSize) {
            return -1;
        }
        return remoteReader().read(dst, offset);
    }

    /** The reader of the current key and ETag (read lock held: they cannot change meanwhile). */
    private Prefetcher remoteReader() {
        synchronized (remoteLock) {
            if (remote == null) {
                String readKey = key;
                String readEtag = etag;
                String what = "read '" + path + "'";
                remote = ufs.readahead().open((offset, length, blockSize) -> ufs.objects().readRangeAsync(readKey,
                        readEtag, offset, length, blockSize, what), remoteSize, path);
            }
            return remote;
        }
    }

    /** The key, version or mode changes (write lock held): the readahead of the old one goes. */
    private void closeRemoteReader() {
        synchronized (remoteLock) {
            if (remote != null) {
                remote.close();
                remote = null;
            }
        }
    }

    void write(ByteBuffer src, long offset) throws IOException {
        checkOffset(offset);
        lock.readLock().lock();
        try {
            checkOpen();
            if (mode == Mode.STAGED) {
                modified = true;
                staged.write(src, offset);
                return;
            }
        } finally {
            lock.readLock().unlock();
        }
        lock.writeLock().lock();
        try {
            checkOpen();
            if (mode == Mode.REMOTE && remoteSize == 0 && offset <= MAX_STREAMING_GAP) {
                startStreaming(); // an empty object (created, closed, opened again, as fio does): nothing to fetch
            }
            if (mode == Mode.STREAMING && offset >= upload.bufferStart()
                    && offset - upload.writtenEnd() <= MAX_STREAMING_GAP) {
                modified = true;
                upload.write(src, offset);
                return;
            }
            if (mode != Mode.STAGED) {
                toStaged();
            }
            modified = true;
            staged.write(src, offset);
        } finally {
            lock.writeLock().unlock();
        }
    }

    void truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("size is negative: " + size);
        }
        lock.writeLock().lock();
        try {
            checkOpen();
            if (size == sizeLocked()) {
                return;
            }
            if (mode == Mode.STREAMING && size >= upload.bufferStart()) {
                upload.truncate(size); // a longer size is a zero tail: a fallocated file still streams
            } else if (mode != Mode.STAGED && (size == 0 || mode == Mode.REMOTE && remoteSize == 0)) {
                // open(O_TRUNC), or an empty object sized before it is written: stream the new
                // content instead of fetching the old.
                startStreaming();
                upload.truncate(size);
            } else {
                if (mode != Mode.STAGED) {
                    toStaged();
                }
                staged.truncate(size);
            }
            modified = true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    long size() throws IOException {
        lock.readLock().lock();
        try {
            checkOpen();
            return sizeLocked();
        } finally {
            lock.readLock().unlock();
        }
    }

    private long sizeLocked() throws IOException {
        return switch (mode) {
            case REMOTE -> remoteSize;
            case STREAMING -> upload.size();
            case STAGED -> staged.size();
            case CLOSED -> throw new IOException("'" + path + "': closed");
        };
    }

    /** Uploads what changed; an IOException (EIO upstream) if the upload fails, with the data kept. */
    void force() throws IOException {
        lock.writeLock().lock();
        try {
            checkOpen();
            commit();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The object's ETag after uploading what changed. */
    String version() throws IOException {
        lock.writeLock().lock();
        try {
            checkOpen();
            commit();
            return etag;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * A read found the object's ETag gone (ESTALE): from now on read the version S3 has, of the
     * size it has. Only a REMOTE object follows S3; one being written keeps its own content.
     */
    Optional<UfsStatus> refresh() throws IOException {
        lock.writeLock().lock();
        try {
            checkOpen();
            if (mode != Mode.REMOTE) {
                return Optional.empty();
            }
            String what = "read '" + path + "'";
            HeadObjectResponse now = ufs.objects().head(key, what).orElseThrow(() -> new FsException(FsError.ENOENT,
                    what + ": the object was deleted from the bucket while the file was open"));
            closeRemoteReader();
            etag = S3Objects.etag(now.eTag());
            remoteSize = now.contentLength();
            return Optional.of(S3UnderFileSystem.fileStatus(path, now));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * A handle closed: a writer's close uploads what changed (so close makes data durable, as
     * flush does); the last handle's close also releases everything. If that last upload fails,
     * the IOException is thrown after cleaning up: a staged copy stays in the staging directory
     * (its path is logged), a streaming upload is aborted.
     *
     * @param writer whether the closing handle could write
     * @param last whether it was the last handle (the storage counts them)
     */
    void handleClosed(boolean writer, boolean last) throws IOException {
        lock.writeLock().lock();
        try {
            if (mode == Mode.CLOSED) {
                return;
            }
            if (!last) {
                if (writer) {
                    commit();
                }
                return;
            }
            boolean uploaded = false;
            try {
                commit();
                uploaded = true;
            } finally {
                releaseAll(uploaded);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void releaseAll(boolean uploaded) throws IOException {
        mode = Mode.CLOSED;
        closeRemoteReader();
        if (upload != null) {
            if (!uploaded) {
                upload.abort();
            }
            upload = null;
        }
        if (staged != null) {
            StagedFile copy = staged;
            staged = null;
            if (uploaded || detached) {
                copy.delete();
            } else {
                copy.keep();
                log.warn("the upload of '{}' failed; its content is kept in {}", path, copy.file());
            }
        }
    }

    /** Uploads the changes, if any (write lock held). */
    private void commit() throws IOException {
        if (!modified) {
            return;
        }
        if (detached) {
            modified = false;
            return;
        }
        switch (mode) {
            case STREAMING -> {
                long size = upload.size();
                etag = upload.finish();
                upload = null;
                remoteSize = size;
                mode = Mode.REMOTE;
            }
            case STAGED -> etag = ufs.uploadFile(key, staged.file(), "upload '" + path + "'");
            default -> throw new IllegalStateException("modified in mode " + mode);
        }
        modified = false;
        closeRemoteReader();
    }

    /** Starts the content anew as a streaming upload (write lock held), dropping one under way. */
    private void startStreaming() {
        if (upload != null) {
            upload.abort();
        }
        upload = ufs.newUpload(key, path);
        mode = Mode.STREAMING;
        closeRemoteReader();
    }

    /** Switches to a local copy (write lock held): of the buffered bytes, or of the object, fetched once. */
    private void toStaged() throws IOException {
        if (mode == Mode.STREAMING) {
            if (!upload.uploadedAny()) {
                StagedFile copy = StagedFile.create(ufs.stagingDir(), path);
                try {
                    copy.write(upload.buffered(), 0);
                    copy.truncate(upload.size()); // and the zero tail, if any
                } catch (IOException | RuntimeException e) {
                    copy.delete();
                    throw e;
                }
                upload = null;
                staged = copy;
                mode = Mode.STAGED;
                return;
            }
            commit(); // parts are in S3 already: complete the object, then fetch it
        }
        StagedFile copy = StagedFile.create(ufs.stagingDir(), path);
        try {
            if (remoteSize > 0) {
                long fetched = ufs.objects().download(key, etag, copy.file(), "stage '" + path + "'");
                if (fetched != remoteSize) {
                    throw new IOException("stage '" + path + "': fetched " + fetched + " of " + remoteSize + " bytes");
                }
            }
        } catch (IOException | RuntimeException e) {
            copy.delete();
            throw e;
        }
        staged = copy;
        mode = Mode.STAGED;
        closeRemoteReader();
    }

    /**
     * Before the object is moved by a rename: uploads pending changes so that the copy has them
     * (a streaming upload cannot change its key). Returns the ETag to copy.
     */
    String beforeMove() throws IOException {
        lock.writeLock().lock();
        try {
            if (mode != Mode.CLOSED) {
                commit();
            }
            return etag;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The object now lives at {@code newKey} with version {@code newEtag}: later reads and uploads go there. */
    void moved(String newPath, String newKey, String newEtag) {
        lock.writeLock().lock();
        try {
            path = newPath;
            key = newKey;
            if (newEtag != null) {
                etag = newEtag;
            }
            closeRemoteReader();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The object was deleted, or replaced by another: this handle uploads nothing any more. */
    void detach() {
        lock.writeLock().lock();
        try {
            detached = true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void checkOpen() throws IOException {
        if (mode == Mode.CLOSED) {
            throw new IOException("'" + path + "': closed");
        }
    }

    private static void checkOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset is negative: " + offset);
        }
    }

    String path() {
        lock.readLock().lock();
        try {
            return path;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "OpenObject[" + path + ", " + mode + "]";
    }
}
