package io.strata.client;

import io.strata.core.buffer.LentBytesSink;
import io.strata.core.cache.PageRegions;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.MetaStore;
import io.strata.meta.SetAttr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import static java.util.Objects.requireNonNull;

/**
 * One inode's data while any handle has it open: the under-storage file, and the size and mtime
 * that writes have moved ahead of the metastore until the next flush.
 *
 * <p>Reads and writes run concurrently (positional I/O); a truncate excludes both. Shared by
 * every handle on the inode and closed by {@link OpenFiles} when the last one is released.
 *
 * <p>Reads go through the volume's page cache under the content version the data had when the
 * file was (re)opened or last flushed. A write or truncate sets that version aside: until the
 * next flush records the new one, reads go straight to the under storage, so a read after a
 * write never sees stale pages (and pages fetched meanwhile are keyed by a version that is never
 * read again). With cache_on_write, whole pages written since the flush are cached under the
 * version it records.
 */
final class OpenFile {
    private final long ino;
    private final UnderFileSystem ufs;
    private final DataCache cache;
    private final WrittenPages written;
    private final ReadWriteLock truncateLock = new ReentrantReadWriteLock();
    private final AtomicLong size;
    private volatile long mtimeNs;
    private volatile boolean dirty;
    private volatile UfsFile reader;
    private volatile UfsFile writer;
    /** The version reads are cached under; null: read around the cache (written since the last flush). */
    private volatile String cacheVersion;
    /**
     * Opened from the metastore's record of the data, not checked with the storage: a read may
     * find another version there (ESTALE), see {@link #read(ByteBuffer, long, StorageChanges)}.
     * Guarded by the truncate lock's write side for changes.
     */
    private boolean fromRecord;
    /** Bumped whenever the data is re-taken, so concurrent readers that failed together retake once. */
    private volatile int generation;
    /** Whether a read has returned bytes: after that a new version would mix two in one reader's view. */
    private volatile boolean served;
    private int references;

    /** Told when an open file finds its data changed in the storage behind the mount. */
    interface StorageChanges {
        /** The file takes the storage's new version of its data. */
        void changed(long ino, UfsStatus now) throws IOException;

        /** The storage no longer has the file's data: another tool removed it. */
        void vanished(long ino);
    }

    OpenFile(long ino, UnderFileSystem ufs, DataCache cache, long size, long mtimeNs, UfsFile file,
             boolean writable, boolean fromRecord) {
        this.ino = ino;
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.written = cache.newWrittenPages();
        this.size = new AtomicLong(size);
        this.mtimeNs = mtimeNs;
        this.reader = file;
        this.writer = writable ? file : null;
        this.fromRecord = fromRecord;
    }

    long ino() {
        return ino;
    }

    long size() {
        return size.get();
    }

    long mtimeNs() {
        return mtimeNs;
    }

    /** utimens set the mtime (after a flush): reported for the open file until the next write. */
    void mtimeSet(long mtimeNs) {
        this.mtimeNs = mtimeNs;
    }

    /**
     * Reads up to {@code dst.remaining()} bytes at {@code offset}, never past the current size.
     *
     * <p>A file opened from the metastore's record whose version the storage no longer has (another
     * tool replaced it) fails its read with ESTALE. If nothing was read from it yet, it takes the
     * storage's current version instead, tells {@code onChange}, and reads that: as an open that
     * had asked the storage would have. Once bytes were served the ESTALE stands (reopen the file),
     * so no reader ever sees two versions. A read of data the storage should hold (nothing written
     * since the last flush) that finds none there (ENOENT) tells {@code onChange} it vanished.
     */
    int read(ByteBuffer dst, long offset, StorageChanges onChange) throws IOException {
        return read(dst, offset, onChange, null);
    }

    /**
     * As {@link #read(ByteBuffer, long, StorageChanges)}; {@code sink} (if any) may take bytes the
     * cache fetched into lent memory instead of a copy of them.
     */
    int read(ByteBuffer dst, long offset, StorageChanges onChange, LentBytesSink sink) throws IOException {
        int seen = generation;
        int position = dst.position();
        int limit = dst.limit();
        try {
            int n = read(dst, offset, sink);
            if (n > 0 && !served) {
                served = true;
            }
            return n;
        } catch (FsException e) {
            if (e.error() == FsError.ENOENT && !dirty) {
                onChange.vanished(ino);
            }
            if (e.error() != FsError.ESTALE) {
                throw e;
            }
            Optional<UfsStatus> now = retake(seen, e);
            if (now.isPresent()) {
                onChange.changed(ino, now.get());
            }
            dst.limit(limit).position(position); // pages copied before the failure are read again
            if (sink != null) {
                sink.dropFrom(position);
            }
            return read(dst, offset, sink);
        }
    }

    /**
     * Up to {@code length} bytes at {@code offset}, never past the current size, lent as regions of
     * cached page files when every page they touch is on disk; null when they must be read instead
     * ({@link #read}). Nothing is fetched here, so no other version can show up.
     */
    PageRegions regions(long offset, int length) {
        truncateLock.readLock().lock();
        try {
            String version = cacheVersion;
            long available = size.get() - offset;
            if (version == null || available <= 0) {
                return null;
            }
            PageRegions regions = cache.regions(ino, version, offset, (int) Math.min(length, available));
            if (regions != null && !served) {
                served = true;
            }
            return regions;
        } finally {
            truncateLock.readLock().unlock();
        }
    }

    /** The storage's current version in place of the recorded one, or the ESTALE if that would mix versions. */
    private Optional<UfsStatus> retake(int seen, FsException stale) throws IOException {
        truncateLock.writeLock().lock();
        try {
            if (generation != seen) {
                return Optional.empty(); // a concurrent reader took it already
            }
            if (!fromRecord || served || dirty) {
                throw new FsException(FsError.ESTALE, stale.getMessage() + ": the file was replaced in the under"
                        + " storage while open; open it again to read the new content", stale);
            }
            Optional<UfsStatus> now = reader.refresh();
            if (now.isEmpty()) {
                throw stale;
            }
            fromRecord = false;
            size.set(now.get().size());
            mtimeNs = now.get().mtimeNs();
            cacheVersion = cache.enabled() ? now.get().version() : null;
            generation++;
            return now;
        } finally {
            truncateLock.writeLock().unlock();
        }
    }

    private int read(ByteBuffer dst, long offset, LentBytesSink sink) throws IOException {
        truncateLock.readLock().lock();
        try {
            long available = size.get() - offset;
            if (available <= 0) {
                return 0;
            }
            if (dst.remaining() > available) {
                dst.limit(dst.position() + (int) available);
            }
            String version = cacheVersion;
            if (version != null) {
                return cache.read(reader, ino, version, size.get(), dst, offset, sink);
            }
            int total = 0;
            while (dst.hasRemaining()) {
                int n = reader.read(dst, offset + total);
                if (n < 0) {
                    break; // the under-storage file is shorter than recorded: a short read, not garbage
                }
                total += n;
            }
            return total;
        } finally {
            truncateLock.readLock().unlock();
        }
    }

    void write(ByteBuffer src, long offset, long nowNs) throws IOException {
        UfsFile out = requireWriter();
        int length = src.remaining();
        truncateLock.readLock().lock();
        try {
            cacheVersion = null;
            if (written != null) {
                synchronized (written) { // the staged copy must end up as the file's bytes: one writer at a time
                    ByteBuffer data = src.duplicate();
                    try {
                        out.write(src, offset);
                    } catch (IOException | RuntimeException e) {
                        written.truncated(); // what was written is unknown now
                        throw e;
                    }
                    written.written(data, offset);
                }
            } else {
                out.write(src, offset);
            }
            size.accumulateAndGet(offset + length, Math::max);
            mtimeNs = nowNs;
            dirty = true; // after size and mtime, so a concurrent flush that clears it cannot miss them
        } finally {
            truncateLock.readLock().unlock();
        }
    }

    void truncate(long newSize, long nowNs) throws IOException {
        UfsFile out = requireWriter();
        truncateLock.writeLock().lock();
        try {
            cacheVersion = null;
            if (written != null) {
                written.truncated();
            }
            out.truncate(newSize);
            size.set(newSize);
            mtimeNs = nowNs;
            dirty = true;
        } finally {
            truncateLock.writeLock().unlock();
        }
    }

    /**
     * Records size, mtime and version in the metastore if writes moved them. The version is taken
     * with writes held off, so the cache resumes under exactly the content it names.
     */
    void flush(MetaStore meta) throws IOException {
        if (!dirty) {
            return;
        }
        String version;
        long flushedSize;
        List<WrittenPages.Page> pages;
        truncateLock.writeLock().lock();
        try {
            if (!dirty) {
                return;
            }
            dirty = false;
            UfsFile out = writer;
            version = out == null ? null : versionOf(out);
            flushedSize = size.get();
            pages = written == null ? List.of() : written.drain(flushedSize);
            if (cache.enabled()) {
                cacheVersion = version;
            }
        } finally {
            truncateLock.writeLock().unlock();
        }
        if (version != null) {
            pages.forEach(page -> cache.offerWritten(ino, version, page.index(), page.data()));
        }
        try {
            meta.setAttr(ino, SetAttr.content(flushedSize, mtimeNs, version));
        } catch (IOException | RuntimeException e) {
            dirty = true;
            throw e;
        }
    }

    /**
     * Close-to-open: takes the data's current version for cached reads, unless writes are pending
     * (then the next flush sets it). A file changed behind the mount gets a new version here, so
     * its old pages are never read again.
     */
    void revalidate() {
        if (!cache.enabled()) {
            return;
        }
        truncateLock.writeLock().lock();
        try {
            if (!dirty) {
                UfsFile in = reader;
                cacheVersion = in == null ? null : currentVersion(in);
            }
        } finally {
            truncateLock.writeLock().unlock();
        }
    }

    /** The version of the open data, or null (read around the cache) when it cannot be had. */
    private static String currentVersion(UfsFile file) {
        try {
            return file.version();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The cache version reads use now, or null; for {@code user.strata.cached}. */
    String cacheVersion() {
        return cacheVersion;
    }

    /**
     * The data's version, or null (the recorded one stays) when the file was renamed or unlinked
     * while open: the storage file no longer has the path it was opened at (rename(2) and
     * libfuse2's {@code .fuse_hidden} rename of an unlinked open file), which is no error.
     */
    private static String versionOf(UfsFile out) throws IOException {
        try {
            return out.version();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    void fsync(MetaStore meta) throws IOException {
        UfsFile out = writer;
        if (out != null) {
            out.force();
        }
        flush(meta);
    }

    /**
     * Opens the under-storage file for writing, the first time a writer needs it; {@code dataPath}
     * is where the data lives now (a rename since the first open moved it).
     */
    synchronized void ensureWriter(String dataPath) throws IOException {
        if (writer == null) {
            writer = ufs.open(dataPath, true);
        }
    }

    private UfsFile requireWriter() throws FsException {
        UfsFile out = writer;
        if (out == null) {
            throw new FsException(FsError.EBADF, "file not open for writing");
        }
        return out;
    }

    synchronized void retain() {
        references++;
    }

    /** Drops one reference; true when it was the last. */
    synchronized boolean release() {
        return --references == 0;
    }

    synchronized void close() throws IOException {
        if (written != null) {
            written.truncated(); // pages a failed flush left staged give their budget back
        }
        try (UfsFile r = reader; UfsFile w = writer != reader ? writer : null) {
            reader = null;
            writer = null;
        }
    }
}
