package io.strata.core.cache;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** The free space of the file system under a cache directory; a seam so tests can fill a disk. */
@FunctionalInterface
public interface DiskSpace {
    /** Usable and total bytes of the file system holding {@code dir}. */
    Usage of(Path dir) throws IOException;

    /** Bytes a non-root user could still write, and the file system's size. */
    record Usage(long usableBytes, long totalBytes) {}

    /** The real file system, through {@link FileStore}. */
    DiskSpace SYSTEM = dir -> {
        FileStore store = Files.getFileStore(dir);
        return new Usage(store.getUsableSpace(), store.getTotalSpace());
    };
}
