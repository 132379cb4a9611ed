package io.strata.core.ufs.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.strata.core.ufs.DirectoryListing;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/** An under storage whose every operation is timed and counted in {@link UfsMeters}. */
public final class MeteredUnderFileSystem implements UnderFileSystem {
    private final UnderFileSystem engine;
    private final UfsMeters meters;

    public MeteredUnderFileSystem(UnderFileSystem engine, MeterRegistry registry) {
        this.engine = requireNonNull(engine, "engine is null");
        this.meters = new UfsMeters(registry);
        engine.bindMetrics(registry);
    }

    @Override
    public URI uri() {
        return engine.uri();
    }

    @Override
    public Optional<UfsStatus> status(String path) throws IOException {
        return meters.timed("status", () -> engine.status(path));
    }

    @Override
    public void list(String dir, Consumer<UfsStatus> sink) throws IOException {
        meters.timed("list", () -> engine.list(dir, sink));
    }

    @Override
    public List<DirectoryListing> listSiblings(String parent, String first) throws IOException {
        return meters.timed("list_siblings", () -> engine.listSiblings(parent, first));
    }

    @Override
    public UfsFile open(String path, boolean writable) throws IOException {
        return new MeteredUfsFile(meters.timed("open", () -> engine.open(path, writable)), meters);
    }

    @Override
    public UfsFile openRecorded(String path, String version, long size) throws IOException {
        return new MeteredUfsFile(meters.timed("open", () -> engine.openRecorded(path, version, size)), meters);
    }

    @Override
    public UfsFile create(String path) throws IOException {
        return new MeteredUfsFile(meters.timed("create", () -> engine.create(path)), meters);
    }

    @Override
    public void mkdir(String path) throws IOException {
        meters.timed("mkdir", () -> engine.mkdir(path));
    }

    @Override
    public void deleteFile(String path) throws IOException {
        meters.timed("delete", () -> engine.deleteFile(path));
    }

    @Override
    public void deleteDirectory(String path) throws IOException {
        meters.timed("delete_directory", () -> engine.deleteDirectory(path));
    }

    @Override
    public void rename(String src, String dst) throws IOException {
        meters.timed("rename", () -> engine.rename(src, dst));
    }

    @Override
    public boolean preallocates() {
        return engine.preallocates();
    }

    @Override
    public boolean remote() {
        return engine.remote();
    }

    @Override
    public Optional<Capacity> capacity() throws IOException {
        return engine.capacity();
    }

    /** Bound once, at construction, with the registry this decorator counts in. */
    @Override
    public void bindMetrics(MeterRegistry registry) {}

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
