package io.strata.client.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Times every call into a metastore engine: {@code strata.meta.ops} (a timer per {@code op}) and
 * {@code strata.meta.errors} (per {@code op}). It sits below the heap metadata cache, so it counts
 * what reached the engine (a round trip on PostgreSQL or Redis), not what the cache answered.
 */
public final class MeteredMetaStore implements MetaStore {
    static final String OPS = "strata.meta.ops";
    static final String ERRORS = "strata.meta.errors";

    private final MetaStore engine;
    private final MeterRegistry registry;
    private final ConcurrentMap<String, Op> ops = new ConcurrentHashMap<>();

    public MeteredMetaStore(MetaStore engine, MeterRegistry registry) {
        this.engine = requireNonNull(engine, "engine is null");
        this.registry = requireNonNull(registry, "registry is null");
    }

    /** One operation's two meters, made on first use and looked up without allocating after. */
    private record Op(Timer timer, Counter errors) {}

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }

    @FunctionalInterface
    private interface VoidCall {
        void run() throws IOException;
    }

    private Op op(String name) {
        return ops.computeIfAbsent(name, n -> new Op(
                Timer.builder(OPS).tag("op", n).description("metastore engine calls").publishPercentileHistogram()
                        .register(registry),
                Counter.builder(ERRORS).tag("op", n).description("metastore engine calls that failed")
                        .register(registry)));
    }

    private <T> T timed(String name, Call<T> call) throws IOException {
        Op op = op(name);
        long start = System.nanoTime();
        try {
            return call.run();
        } catch (IOException | RuntimeException e) {
            op.errors().increment();
            throw e;
        } finally {
            op.timer().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    private void timed(String name, VoidCall call) throws IOException {
        timed(name, () -> {
            call.run();
            return null;
        });
    }

    @Override
    public Inode getInode(long ino) throws IOException {
        return timed("get_inode", () -> engine.getInode(ino));
    }

    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        return timed("lookup", () -> engine.lookup(parent, name));
    }

    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        return timed("readdir", () -> engine.readdir(dir, after, limit));
    }

    @Override
    public List<DirectoryEntry> readdirPlus(long dir, String after, int limit) throws IOException {
        return timed("readdir_plus", () -> engine.readdirPlus(dir, after, limit));
    }

    @Override
    public boolean readdirPlusIsOneRead() {
        return engine.readdirPlusIsOneRead();
    }

    @Override
    public Inode create(long parent, String name, NewInode spec) throws IOException {
        return timed("create", () -> engine.create(parent, name, spec));
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        return timed("link", () -> engine.link(ino, parent, name, nowNs));
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        return timed("unlink", () -> engine.unlink(parent, name, nowNs));
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        return timed("rmdir", () -> engine.rmdir(parent, name, nowNs));
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        return timed("rename", () -> engine.rename(srcParent, srcName, dstParent, dstName, nowNs));
    }

    @Override
    public Inode setAttr(long ino, SetAttr change) throws IOException {
        return timed("set_attr", () -> engine.setAttr(ino, change));
    }

    @Override
    public String readlink(long ino) throws IOException {
        return timed("readlink", () -> engine.readlink(ino));
    }

    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        return timed("get_xattr", () -> engine.getXattr(ino, name));
    }

    @Override
    public void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        timed("set_xattr", () -> engine.setXattr(ino, name, value, mode));
    }

    @Override
    public List<String> listXattrs(long ino) throws IOException {
        return timed("list_xattrs", () -> engine.listXattrs(ino));
    }

    @Override
    public void removeXattr(long ino, String name) throws IOException {
        timed("remove_xattr", () -> engine.removeXattr(ino, name));
    }

    @Override
    public int mergeListing(long dir, List<ListedEntry> entries) throws IOException {
        return timed("merge_listing", () -> engine.mergeListing(dir, entries));
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        timed("mark_synced", () -> engine.markSynced(dir, syncedNs));
    }

    @Override
    public VolumeStats stats() throws IOException {
        return timed("stats", engine::stats);
    }

    @Override
    public Optional<String> getSetting(String key) throws IOException {
        return timed("get_setting", () -> engine.getSetting(key));
    }

    @Override
    public void putSetting(String key, String value) throws IOException {
        timed("put_setting", () -> engine.putSetting(key, value));
    }

    @Override
    public DumpSource dumpSource() throws IOException {
        return engine.dumpSource();
    }

    @Override
    public LoadTarget loadTarget() throws IOException {
        return engine.loadTarget();
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
