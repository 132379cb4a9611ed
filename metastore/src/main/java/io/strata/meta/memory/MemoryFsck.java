package io.strata.meta.memory;

import io.strata.meta.Inode;
import io.strata.meta.fsck.FsckTarget;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

import static java.util.Objects.requireNonNull;

/**
 * fsck's scan and repairs for the memory engine, each under the store's lock. The inode count is
 * the size of {@code nodes}, so only the used bytes are a counter that can drift.
 */
final class MemoryFsck implements FsckTarget {
    private final MemoryMetaStore store;

    MemoryFsck(MemoryMetaStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    @Override
    public List<Inode> inodes(long after, int limit) throws IOException {
        Lock lock = hold(store.lock.readLock());
        try {
            // a sort per page: a memory volume is small, and fsck of one is rare
            return store.nodes.values().stream().filter(node -> node.ino > after)
                    .sorted((a, b) -> Long.compare(a.ino, b.ino)).limit(limit).map(MemoryNode::toInode)
                    .collect(ArrayList::new, List::add, List::addAll);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void setLinks(long ino, int nlink, List<Link> names) throws IOException {
        Lock lock = hold(store.lock.writeLock());
        try {
            MemoryNode node = store.nodes.get(ino);
            if (node == null) {
                return;
            }
            node.nlink = nlink;
            if (!node.isDirectory()) {
                node.links.clear();
                names.forEach(name -> node.links.add(new MemoryNode.Link(name.parent(), name.name())));
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void setPrimaryLink(long ino, Link primary) throws IOException {
        Lock lock = hold(store.lock.writeLock());
        try {
            MemoryNode node = store.nodes.get(ino);
            if (node != null) {
                node.parent = primary.parent();
                node.name = primary.name();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void removeEntry(long parent, String name) throws IOException {
        Lock lock = hold(store.lock.writeLock());
        try {
            MemoryNode dir = store.nodes.get(parent);
            if (dir != null && dir.children != null) {
                dir.children.remove(name);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The node holds its entries and xattrs: removing it removes them. */
    @Override
    public void removeInode(long ino) throws IOException {
        Lock lock = hold(store.lock.writeLock());
        try {
            store.nodes.remove(ino);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void setCounters(long inodes, long usedBytes) throws IOException {
        Lock lock = hold(store.lock.writeLock());
        try {
            store.nodes.usedBytes = usedBytes;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        // nothing of its own
    }

    private Lock hold(Lock lock) throws IOException {
        lock.lock();
        if (store.closed) {
            lock.unlock();
            throw new IOException("metastore is closed");
        }
        return lock;
    }
}
