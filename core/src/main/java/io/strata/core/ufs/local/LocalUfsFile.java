package io.strata.core.ufs.local;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.io.PageCacheWrites;
import io.strata.core.ufs.UfsFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * One open local file, read and written with positional {@link FileChannel} calls.
 *
 * <p>Positional reads and writes do not touch the channel's position, so any number of threads
 * may use one instance at once. A thread interrupted inside a read or write closes the channel
 * for every thread (a {@link FileChannel} rule): cancel work on these files without interrupting.
 *
 * <p>The version is size and mtime, and mtime may tick coarsely (ext4 stamps from a clock that
 * advances every few milliseconds; some file systems keep whole seconds). So that writes through
 * this handle can never leave the version a caller saw before them, {@link #version()} and
 * {@link #close()} move the mtime past the newest one this handle has reported when it has not
 * moved by itself. Changes made by other programs within one tick stay undetectable.
 */
final class LocalUfsFile implements UfsFile {
    private static final Logger log = LoggerFactory.getLogger(LocalUfsFile.class);
    private static final long[] MTIME_STEPS_NS = {1_000L, 1_000_000L, 1_000_000_000L};

    private final Path file;
    private final String path;
    private final FileChannel channel;
    private final boolean writable;
    private volatile boolean modified;
    /** The newest mtime a caller may hold a version of; guarded by this. */
    private long seenMtimeNs;

    /**
     * @param seenMtimeNs the mtime the caller knew before opening, or {@link Long#MIN_VALUE}
     * @param modified whether opening already changed the content (create's truncation)
     */
    LocalUfsFile(Path file, String path, FileChannel channel, boolean writable, long seenMtimeNs,
                 boolean modified) {
        this.file = requireNonNull(file, "file is null");
        this.path = requireNonNull(path, "path is null");
        this.channel = requireNonNull(channel, "channel is null");
        this.writable = writable;
        this.seenMtimeNs = seenMtimeNs;
        this.modified = modified;
    }

    @Override
    public int read(ByteBuffer dst, long offset) throws IOException {
        checkOffset(offset);
        int total = 0;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, offset + total);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
        }
        return total;
    }

    @Override
    public void write(ByteBuffer src, long offset) throws IOException {
        checkWritable("write");
        checkOffset(offset);
        try {
            writeFully(src, offset);
        } finally {
            modified = true;
        }
    }

    /**
     * Cuts or extends the file. Extending writes one zero byte at the new end: the gap before it
     * is a hole that reads as zeros, as after ftruncate(2), which FileChannel cannot extend with.
     */
    @Override
    public void truncate(long size) throws IOException {
        checkWritable("truncate");
        if (size < 0) {
            throw new IllegalArgumentException("size is negative: " + size);
        }
        long current = channel.size();
        if (size == current) {
            return;
        }
        try {
            if (size < current) {
                channel.truncate(size);
            } else {
                writeFully(ByteBuffer.allocate(1), size - 1);
            }
        } finally {
            modified = true;
        }
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public void force() throws IOException {
        channel.force(true);
    }

    @Override
    public synchronized String version() throws IOException {
        boolean changed = modified;
        modified = false;
        long mtimeNs = mtimeNs();
        if (changed && mtimeNs <= seenMtimeNs) {
            mtimeNs = advanceMtime(seenMtimeNs, mtimeNs);
        }
        seenMtimeNs = Math.max(seenMtimeNs, mtimeNs);
        return LocalAttributes.version(channel.size(), mtimeNs);
    }

    @Override
    public synchronized void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        try {
            if (modified) {
                version();
            }
        } catch (NoSuchFileException e) {
            // Deleted or renamed while open: no version left to protect.
        } finally {
            channel.close();
        }
    }

    private void writeFully(ByteBuffer src, long offset) throws IOException {
        PageCacheWrites.writeFully(channel, src, offset);
    }

    private long mtimeNs() throws IOException {
        return LocalAttributes.mtimeNs(Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS));
    }

    /** Sets the mtime just past {@code floorNs}, in steps the file system can store; best effort. */
    private long advanceMtime(long floorNs, long currentNs) {
        try {
            for (long step : MTIME_STEPS_NS) {
                Files.setLastModifiedTime(file, FileTime.from(floorNs + step, TimeUnit.NANOSECONDS));
                long now = mtimeNs();
                if (now > floorNs) {
                    return now;
                }
            }
        } catch (IOException e) {
            // E.g. EPERM: setting an explicit time needs ownership, writing the file does not.
            log.debug("cannot advance the mtime of '{}'; its version may not change: {}", path, e.toString());
        }
        return currentNs;
    }

    private void checkWritable(String operation) throws FsException {
        if (!writable) {
            throw new FsException(FsError.EBADF, operation + " '" + path + "': opened read-only");
        }
    }

    private static void checkOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset is negative: " + offset);
        }
    }

    @Override
    public String toString() {
        return "LocalUfsFile[" + path + (writable ? ", rw]" : ", r]");
    }
}
