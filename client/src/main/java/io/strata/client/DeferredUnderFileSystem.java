package io.strata.client;

import io.micrometer.core.instrument.MeterRegistry;
import io.strata.core.ufs.DirectoryListing;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * An under storage still being opened ({@link StorageCheck#AT_FIRST_USE}): each operation waits
 * for the opening and then goes to the storage, or fails as opening it failed. It owns the
 * opening: closing this closes the storage, once it is open.
 */
final class DeferredUnderFileSystem implements UnderFileSystem {
    private final UfsOpening opening;
    private final URI uri;

    /** {@code uri}: what the storage opens as ({@link UfsOpening} checks it). */
    DeferredUnderFileSystem(UfsOpening opening, URI uri) {
        this.opening = requireNonNull(opening, "opening is null");
        this.uri = requireNonNull(uri, "uri is null");
    }

    private UnderFileSystem storage() throws IOException {
        return opening.await();
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public Optional<UfsStatus> status(String path) throws IOException {
        return storage().status(path);
    }

    @Override
    public void list(String dir, Consumer<UfsStatus> sink) throws IOException {
        storage().list(dir, sink);
    }

    @Override
    public List<DirectoryListing> listSiblings(String parent, String first) throws IOException {
        return storage().listSiblings(parent, first);
    }

    @Override
    public UfsFile open(String path, boolean writable) throws IOException {
        return storage().open(path, writable);
    }

    @Override
    public UfsFile openRecorded(String path, String version, long size) throws IOException {
        return storage().openRecorded(path, version, size);
    }

    @Override
    public UfsFile create(String path) throws IOException {
        return storage().create(path);
    }

    @Override
    public void mkdir(String path) throws IOException {
        storage().mkdir(path);
    }

    @Override
    public void deleteFile(String path) throws IOException {
        storage().deleteFile(path);
    }

    @Override
    public void deleteDirectory(String path) throws IOException {
        storage().deleteDirectory(path);
    }

    @Override
    public void rename(String src, String dst) throws IOException {
        storage().rename(src, dst);
    }

    @Override
    public boolean preallocates() {
        return askOpened(UnderFileSystem::preallocates);
    }

    @Override
    public boolean remote() {
        return askOpened(UnderFileSystem::remote);
    }

    /**
     * A property of the storage, once it is open: these methods declare no IOException, so a failure
     * to open is thrown unchecked.
     */
    private boolean askOpened(Predicate<UnderFileSystem> property) {
        try {
            return property.test(storage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Optional<Capacity> capacity() throws IOException {
        return storage().capacity();
    }

    /** Binds the storage's meters once it is open, without waiting for it. */
    @Override
    public void bindMetrics(MeterRegistry registry) {
        opening.whenOpened(storage -> storage.bindMetrics(registry));
    }

    /** Closes the storage, waiting for an opening still under way; one that failed has nothing to close. */
    @Override
    public void close() throws IOException {
        UnderFileSystem storage;
        try {
            storage = opening.await();
        } catch (IOException | RuntimeException e) {
            return; // reported to the operations that needed the storage
        }
        storage.close();
    }
}
