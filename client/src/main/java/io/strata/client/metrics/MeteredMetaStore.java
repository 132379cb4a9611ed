package io.strata.client.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.strata.core.metrics.OpMeters;
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

import static java.util.Objects.requireNonNull;

/**
 * Times every call into a metastore engine ({@link OpMeters}: {@code strata.meta.ops}, a timer per
 * {@code op}, and {@code strata.meta.errors}). It sits below the heap metadata cache, so it counts
 * what reached the engine (a round trip on PostgreSQL or Redis), not what the cache answered.
 */
public final class MeteredMetaStore implements MetaStore {
    private final MetaStore engine;
    private final OpMeters ops;

    public MeteredMetaStore(MetaStore engine, MeterRegistry registry) {
        this.engine = requireNonNull(engine, "engine is null");
        this.ops = new OpMeters(registry, "strata.meta", "metastore engine calls");
    }

    private <T> T timed(String name, OpMeters.Call<T> call) throws IOException {
        return ops.timed(name, call);
    }

    private void timed(String name, OpMeters.VoidCall call) throws IOException {
        ops.timed(name, call);
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
    public void prefetch() throws IOException {
        engine.prefetch();
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
