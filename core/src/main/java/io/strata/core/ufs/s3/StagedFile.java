package io.strata.core.ufs.s3;

import io.strata.core.io.PageCacheWrites;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static java.util.Objects.requireNonNull;

/**
 * A local copy of one object, read and written in place with positional I/O, uploaded whole.
 *
 * <p>Lives in the staging directory under a unique name made from the file's own name, so an
 * operator can tell which file a copy kept after a failed upload belongs to.
 */
final class StagedFile {
    private final Path file;
    private final FileChannel channel;

    private StagedFile(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /** A new, empty staging file in {@code dir} (created if missing) for the volume path {@code path}. */
    static StagedFile create(Path dir, String path) throws IOException {
        requireNonNull(path, "path is null");
        Files.createDirectories(dir);
        String name = path.substring(path.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9._-]", "_");
        if (name.length() > 100) {
            name = name.substring(0, 100);
        }
        Path file = Files.createTempFile(dir, name + ".", ".staged");
        try {
            return new StagedFile(file, FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    Path file() {
        return file;
    }

    int read(ByteBuffer dst, long offset) throws IOException {
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

    void write(ByteBuffer src, long offset) throws IOException {
        PageCacheWrites.writeFully(channel, src, offset);
    }

    /** Cuts, or extends with zeros (a hole: one zero byte written at the new end). */
    void truncate(long size) throws IOException {
        long current = channel.size();
        if (size < current) {
            channel.truncate(size);
        } else if (size > current) {
            write(ByteBuffer.allocate(1), size - 1);
        }
    }

    long size() throws IOException {
        return channel.size();
    }

    /** Closes and removes the file. */
    void delete() throws IOException {
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Closes the file and leaves it where it is (its upload failed: the data must survive). */
    void keep() throws IOException {
        channel.close();
    }
}
