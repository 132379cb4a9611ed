package io.strata.meta.memory;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.VolumeFormat;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;
import io.strata.meta.dump.LoadBatch;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.memory.MemoryNode.Link;

import java.io.IOException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;

import static java.util.Objects.requireNonNull;

/**
 * The target side of a load into the memory engine, which writes the store's maps directly:
 * batches applied in order by one writer thread under the write lock. Nothing of a memory
 * volume outlives the process, so a load needs no mark of being under way.
 */
final class MemoryLoadTarget implements LoadTarget {
    private final MemoryMetaStore store;

    MemoryLoadTarget(MemoryMetaStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    @Override
    public String describe() {
        return "memory://";
    }

    @Override
    public int parallelism() {
        return 1; // a directory's node must exist before its entries go in: batches in order
    }

    @Override
    public Optional<String> nonEmpty() throws IOException {
        Lock lock = lock(store.lock.readLock());
        try {
            if (store.nodes.size() > 1) {
                return Optional.of("it has " + store.nodes.size() + " inodes");
            }
            if (!store.nodes.get(Inode.ROOT).xattrs.isEmpty()) {
                return Optional.of("its root directory has xattrs");
            }
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void clear() throws IOException {
        Lock lock = lock(store.lock.writeLock());
        try {
            long now = System.currentTimeMillis() * 1_000_000L;
            store.nodes.clear();
            store.nodes.put(Inode.ROOT, new MemoryNode(new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, now,
                    now, now, 2, 0, 0, Inode.ROOT, "", null, Inode.NEVER_SYNCED), null));
            String version = store.settings.get(VolumeFormat.VERSION_KEY);
            store.settings.clear();
            store.settings.put(VolumeFormat.VERSION_KEY, version);
            store.nodes.nextInode = Inode.ROOT + 1;
            store.nodes.usedBytes = 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void begin() {}

    @Override
    public void write(LoadBatch batch) throws IOException {
        Lock lock = lock(store.lock.writeLock());
        try {
            for (DumpedInode node : batch.inodes()) {
                if (store.nodes.containsKey(node.ino())) {
                    throw new IOException("inode " + node.ino() + " is loaded twice");
                }
                MemoryNode memoryNode = new MemoryNode(node.inode(), node.symlinkTarget());
                for (Xattr xattr : node.xattrs()) {
                    memoryNode.xattrs.put(xattr.name(), xattr.value());
                }
                store.nodes.put(node.ino(), memoryNode);
            }
            for (LoadBatch.Name name : batch.names()) {
                Dentry dentry = name.dentry();
                MemoryNode parent = store.nodes.get(dentry.parent());
                MemoryNode child = store.nodes.get(dentry.ino());
                if (parent == null || parent.children == null || child == null) {
                    throw new IOException("entry '" + dentry.name() + "' in directory " + dentry.parent()
                            + " came before its directory or its inode");
                }
                parent.children.put(dentry.name(), dentry);
                child.links.add(new Link(dentry.parent(), dentry.name()));
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void finish(Summary summary) throws IOException {
        Lock lock = lock(store.lock.writeLock());
        try {
            MemoryNode root = store.nodes.get(Inode.ROOT);
            Inode loaded = summary.root().inode();
            root.mode = loaded.mode();
            root.uid = loaded.uid();
            root.gid = loaded.gid();
            root.atimeNs = loaded.atimeNs();
            root.mtimeNs = loaded.mtimeNs();
            root.ctimeNs = loaded.ctimeNs();
            root.nlink = loaded.nlink();
            root.size = loaded.size();
            root.ufsVersion = loaded.ufsVersion();
            root.syncedNs = loaded.syncedNs();
            root.xattrs.clear();
            for (Xattr xattr : summary.root().xattrs()) {
                root.xattrs.put(xattr.name(), xattr.value());
            }
            for (LinkFix fix : summary.fixes()) {
                MemoryNode node = store.nodes.get(fix.ino());
                if (node == null) {
                    throw new IOException("inode " + fix.ino() + " to fix was not loaded");
                }
                node.nlink = fix.nlink();
                if (fix.movesPrimary()) {
                    node.parent = fix.parent();
                    node.name = fix.name();
                }
            }
            store.nodes.nextInode = summary.counters().nextInode();
            store.nodes.usedBytes = summary.counters().usedBytes();
            store.settings.putAll(new TreeMap<>(summary.settings()));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void abort() throws IOException {
        clear();
    }

    @Override
    public void close() {}

    private Lock lock(Lock lock) throws IOException {
        lock.lock();
        if (store.closed) {
            lock.unlock();
            throw new IOException("metastore is closed");
        }
        return lock;
    }
}
