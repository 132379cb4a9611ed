package io.strata.meta.memory;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.Names;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpEntry;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;

import static java.util.Objects.requireNonNull;

/**
 * The source side of a dump of the memory engine, which reads the store's maps directly. A
 * consistent snapshot: the read lock is held from open to close, so writers wait for the
 * whole dump. The dump's fetch threads read without taking the lock: no writer can run while
 * this holds it, and they start after it was taken.
 */
final class MemoryDumpSource implements DumpSource {
    private final MemoryMetaStore store;
    private final Lock held;
    private boolean open = true;

    MemoryDumpSource(MemoryMetaStore store) throws IOException {
        this.store = requireNonNull(store, "store is null");
        this.held = store.lock.readLock();
        held.lock();
        if (store.closed) {
            held.unlock();
            throw new IOException("metastore is closed");
        }
    }

    @Override
    public String consistency() {
        return "a consistent snapshot (changes wait until the dump is done)";
    }

    @Override
    public int parallelism() {
        return 1;
    }

    @Override
    public Map<String, String> settings() {
        return Map.copyOf(store.settings);
    }

    @Override
    public DumpCounters counters() {
        return new DumpCounters(store.nodes.nextInode, store.nodes.size(), store.nodes.usedBytes);
    }

    @Override
    public DumpedInode root() {
        return dumped(store.nodes.get(Inode.ROOT));
    }

    @Override
    public List<DumpEntry> page(long dir, String after, int limit) {
        MemoryNode node = store.nodes.get(dir);
        if (node == null || node.children == null) {
            return List.of();
        }
        var children = after == null ? node.children : node.children.tailMap(after, false);
        List<DumpEntry> page = new ArrayList<>(Math.min(limit, children.size()));
        for (Dentry dentry : children.values()) {
            if (page.size() == limit) {
                break;
            }
            MemoryNode child = store.nodes.get(dentry.ino());
            page.add(new DumpEntry(dentry.name(), dentry.ino(), child == null ? null : dumped(child)));
        }
        return page;
    }

    @Override
    public void close() {
        if (open) {
            open = false;
            held.unlock();
        }
    }

    private static DumpedInode dumped(MemoryNode node) {
        List<Xattr> xattrs = new ArrayList<>(node.xattrs.size());
        node.xattrs.forEach((name, value) -> xattrs.add(new Xattr(name, value)));
        xattrs.sort((a, b) -> Names.ORDER.compare(a.name(), b.name()));
        return new DumpedInode(node.toInode(), node.type == InodeType.SYMLINK ? node.symlinkTarget : null, xattrs);
    }
}
