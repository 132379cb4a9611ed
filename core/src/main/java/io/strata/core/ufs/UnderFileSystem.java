package io.strata.core.ufs;

import io.micrometer.core.instrument.MeterRegistry;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The storage under a Strata volume: a local directory or an object store bucket prefix.
 *
 * <p>Paths are relative to the volume root, '/'-separated, without a leading slash; the root is
 * the empty string. The under storage holds file data and the directory tree in their natural
 * layout, readable by every other tool; everything it cannot express (owners, hard links,
 * xattrs) lives in the metastore. Failures are {@link io.strata.core.fs.FsException}s where a
 * POSIX error applies (ENOENT, EEXIST, ENOTEMPTY) and plain {@link IOException}s otherwise.
 */
public interface UnderFileSystem extends Closeable {
    /** The volume's root, e.g. {@code file:///data/src} or {@code s3://bucket/prefix}. */
    URI uri();

    /** Status of one entry, or empty if it does not exist. */
    Optional<UfsStatus> status(String path) throws IOException;

    /**
     * Streams the direct children of a directory to {@code sink}, in pages, so that a directory
     * of any size is listed in bounded memory. ENOENT if the directory does not exist.
     */
    void list(String dir, Consumer<UfsStatus> sink) throws IOException;

    /**
     * The whole listings of as many sibling directories as one request to the storage gives, where
     * the storage can list a subtree at once (an object store's recursive listing): the
     * subdirectories of {@code parent} whose names sort from {@code first} on, in the storage's
     * order, each whole (a directory the request covers only in part is left out). Empty if the
     * storage cannot, or if the request does not cover {@code first} whole: the caller lists each
     * directory itself then. Used for a directory's first listing, so that a walk of a tree whose
     * directories each hold a few hundred names lists ten of them per request instead of one.
     */
    default List<DirectoryListing> listSiblings(String parent, String first) throws IOException {
        return List.of();
    }

    /** Opens an existing file for reading (and for writing, if {@code writable}). */
    UfsFile open(String path, boolean writable) throws IOException;

    /**
     * Opens {@code path} for reading as the caller last recorded it: content version
     * {@code version} of {@code size} bytes. A store that can make every read conditional on the
     * version (S3: If-Match) opens without a request of its own and fails a read with
     * {@link io.strata.core.fs.FsError#ESTALE} once the content is another version; then
     * {@link UfsFile#refresh()} takes the current one. Others open as {@link #open} does.
     */
    default UfsFile openRecorded(String path, String version, long size) throws IOException {
        return open(path, false);
    }

    /** Creates an empty file, replacing any file at that path, and opens it for writing. */
    UfsFile create(String path) throws IOException;

    /** Creates one directory; its parent must exist. An existing directory is not an error. */
    void mkdir(String path) throws IOException;

    /** Deletes a file. A missing file is not an error. */
    void deleteFile(String path) throws IOException;

    /** Deletes an empty directory. A missing directory is not an error; ENOTEMPTY if not empty. */
    void deleteDirectory(String path) throws IOException;

    /** Moves a file or a directory tree, replacing a file at {@code dst}. */
    void rename(String src, String dst) throws IOException;

    /**
     * Whether fallocate may make a file longer here. A directory's file system reserves the space.
     * An object store has none to reserve, and the length alone would be zeros sent at close: fio
     * sizes its files, closes them and opens them again, so the zeros went up and came back down
     * before a byte was written. There fallocate past the end is refused (EOPNOTSUPP, as s3fs,
     * goofys and mountpoint-s3 answer) and callers write instead.
     */
    default boolean preallocates() {
        return true;
    }

    /**
     * Whether each read is a request over the network (object stores), so that fetching data
     * before it is asked for can hide the request's time; a local directory's reads are not.
     */
    default boolean remote() {
        return false;
    }

    /** Capacity of the storage, for statfs; empty where it is unbounded (object stores). */
    Optional<Capacity> capacity() throws IOException;

    /**
     * Registers the meters of this storage's own machinery (S3: {@code strata.readahead.*}) in the
     * volume's {@code registry}; call once per volume. Storage with nothing to show (local
     * directories) registers nothing.
     */
    default void bindMetrics(MeterRegistry registry) {}

    /** Total and free bytes of the storage. */
    record Capacity(long totalBytes, long freeBytes) {}
}
