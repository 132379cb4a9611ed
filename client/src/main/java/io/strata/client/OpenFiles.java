package io.strata.client;

import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static java.util.Objects.requireNonNull;

/** The open-file table: one {@link OpenFile} per open inode, reference-counted by handles. */
final class OpenFiles {
    private final UnderFileSystem ufs;
    private final MetaStore meta;
    private final DataCache cache;
    private final ConcurrentMap<Long, OpenFile> byIno = new ConcurrentHashMap<>();

    OpenFiles(UnderFileSystem ufs, MetaStore meta, DataCache cache) {
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.meta = requireNonNull(meta, "meta is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    /** Opens (or shares) the inode's data at {@code dataPath}; the caller must {@link #release} it. */
    OpenFile acquire(Inode inode, String dataPath, boolean writable) throws IOException {
        OpenFile opened;
        try {
            opened = byIno.compute(inode.ino(), (ino, open) -> {
                OpenFile file = open;
                if (file == null) {
                    file = new OpenFile(ino, ufs, cache, inode.size(), inode.mtimeNs(), openData(dataPath, writable),
                            writable);
                }
                file.retain();
                return file;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (writable) {
            try {
                opened.ensureWriter(dataPath);
            } catch (IOException e) {
                release(opened);
                throw e;
            }
        }
        opened.revalidate();
        return opened;
    }

    /** Registers the data of a file just created, opened for writing. */
    OpenFile acquireCreated(Inode inode, UfsFile created) {
        return byIno.compute(inode.ino(), (ino, open) -> {
            OpenFile file = open != null ? open : new OpenFile(ino, ufs, cache, 0, inode.mtimeNs(), created, true);
            file.retain();
            return file;
        });
    }

    private UfsFile openData(String dataPath, boolean writable) {
        try {
            return ufs.open(dataPath, writable);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Optional<OpenFile> get(long ino) {
        return Optional.ofNullable(byIno.get(ino));
    }

    /** Drops a handle's reference; the last one flushes and closes the data, and returns true. */
    boolean release(OpenFile file) throws IOException {
        boolean[] last = new boolean[1];
        byIno.computeIfPresent(file.ino(), (ino, open) -> {
            last[0] = open.release();
            return last[0] ? null : open;
        });
        if (last[0]) {
            try (AutoCloseableFile closing = file::close) {
                file.flush(meta);
            }
        }
        return last[0];
    }

    /** Flushes and closes everything still open, at unmount. Returns the failures. */
    List<IOException> closeAll() {
        List<IOException> failures = new ArrayList<>();
        for (OpenFile file : byIno.values()) {
            try (AutoCloseableFile closing = file::close) {
                file.flush(meta);
            } catch (IOException e) {
                failures.add(e);
            }
        }
        byIno.clear();
        return failures;
    }

    @FunctionalInterface
    private interface AutoCloseableFile extends AutoCloseable {
        @Override
        void close() throws IOException;
    }
}
