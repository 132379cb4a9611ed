package io.strata.client;

import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;

import static java.util.Objects.requireNonNull;

/** The open-file table: one {@link OpenFile} per open inode, reference-counted by handles. */
final class OpenFiles {
    private final UnderFileSystem ufs;
    private final MetaStore meta;
    private final DataCache cache;
    /** Read-only opens take the metastore's record of the data's version, asking the storage nothing. */
    private final boolean openFromRecord;
    private final ConcurrentMap<Long, OpenFile> byIno = new ConcurrentHashMap<>();
    /** Inodes whose last close is flushing and closing their data, done when the future completes. */
    private final ConcurrentMap<Long, CompletableFuture<Void>> closing = new ConcurrentHashMap<>();

    /**
     * @param openFromRecord whether a read-only open trusts the metastore's record of the data's
     *        version and size (S3: no HEAD; a read that finds another version takes it then), as
     *        a volume that lists each directory once does; false asks the storage at every open
     */
    OpenFiles(UnderFileSystem ufs, MetaStore meta, DataCache cache, boolean openFromRecord) {
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.meta = requireNonNull(meta, "meta is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.openFromRecord = openFromRecord;
    }

    /** Opens (or shares) the inode's data at {@code dataPath}; the caller must {@link #release} it. */
    OpenFile acquire(Inode inode, String dataPath, boolean writable) throws IOException {
        OpenFile opened;
        do {
            awaitClosed(inode.ino());
            try {
                opened = byIno.compute(inode.ino(), (ino, open) -> {
                    if (open == null && closing.containsKey(ino)) {
                        return null; // its last close began meanwhile: wait for it again
                    }
                    OpenFile file = open;
                    if (file == null) {
                        boolean fromRecord = !writable && openFromRecord && inode.ufsVersion() != null;
                        UfsFile data = fromRecord ? openRecorded(dataPath, inode) : openData(dataPath, writable);
                        file = new OpenFile(ino, ufs, cache, inode.size(), inode.mtimeNs(), data, writable, fromRecord);
                    }
                    file.retain();
                    return file;
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        } while (opened == null);
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
            OpenFile file = open != null ? open
                    : new OpenFile(ino, ufs, cache, 0, inode.mtimeNs(), created, true, false);
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

    private UfsFile openRecorded(String dataPath, Inode inode) {
        try {
            return ufs.openRecorded(dataPath, inode.ufsVersion(), inode.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Optional<OpenFile> get(long ino) {
        return Optional.ofNullable(byIno.get(ino));
    }

    /**
     * One more reference to the inode's open file, for the caller to {@link #release}: until then
     * no other release is the last. Empty when the file is not open, once a last close in progress
     * has ended (its flush records the inode, which must still exist then).
     */
    Optional<OpenFile> hold(long ino) throws IOException {
        while (true) {
            awaitClosed(ino);
            OpenFile held = byIno.computeIfPresent(ino, (k, open) -> {
                open.retain();
                return open;
            });
            // Absent and not closing: not open (a last close leaves byIno and enters closing at once)
            if (held != null || !closing.containsKey(ino)) {
                return Optional.ofNullable(held);
            }
        }
    }

    /** Drops a handle's reference; the last one flushes and closes the data, and returns true. */
    boolean release(OpenFile file) throws IOException {
        boolean[] last = new boolean[1];
        CompletableFuture<Void> closed = new CompletableFuture<>();
        byIno.computeIfPresent(file.ino(), (ino, open) -> {
            last[0] = open.release();
            if (last[0]) {
                closing.put(ino, closed);
            }
            return last[0] ? null : open;
        });
        if (last[0]) {
            try (AutoCloseableFile closeData = file::close) {
                file.flush(meta);
            } finally {
                closing.remove(file.ino(), closed);
                closed.complete(null);
            }
        }
        return last[0];
    }

    /**
     * Waits for a last close of {@code ino} in progress: its data (an upload, on S3) must be where
     * the next open, rename or removal looks for it. Without this, a file closed and then opened,
     * renamed or unlinked at once could find no object yet (the kernel sends the release after
     * close(2) has returned).
     */
    void awaitClosed(long ino) throws IOException {
        CompletableFuture<Void> pending;
        while ((pending = closing.get(ino)) != null) {
            try {
                pending.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the last close of inode "
                        + ino);
            } catch (ExecutionException e) {
                return; // never completed exceptionally
            }
        }
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
