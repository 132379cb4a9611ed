package io.strata.core.cache;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The free space of the file system under a cache directory; a seam so tests can fill a disk. */
@FunctionalInterface
public interface DiskSpace {
    /** Usable and total bytes of the file system holding {@code dir}. */
    Usage of(Path dir) throws IOException;

    /** Bytes a non-root user could still write, and the file system's size. */
    record Usage(long usableBytes, long totalBytes) {}

    /** The real file system, through {@link FileStore}. */
    DiskSpace SYSTEM = new DiskSpace() {
        /**
         * Each directory's store, found once: finding it scans the mount table, which every page
         * written would otherwise pay (a tenth of a disk fill's CPU); its space is a statvfs of
         * the directory itself, so a store found once stays right.
         */
        private final Map<Path, FileStore> stores = new ConcurrentHashMap<>();

        @Override
        public Usage of(Path dir) throws IOException {
            FileStore store = stores.get(dir);
            if (store == null) {
                store = Files.getFileStore(dir);
                stores.put(dir, store);
            }
            return new Usage(store.getUsableSpace(), store.getTotalSpace());
        }
    };
}
