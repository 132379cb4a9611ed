package io.strata.meta.memory;

import io.strata.meta.AbstractFsckTest;
import io.strata.meta.Dentry;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;

/**
 * Runs the fsck conformance suite against the memory engine, damaged through its fields under
 * its write lock. The inode count is the size of its map, so there is no inode counter to damage.
 */
final class MemoryFsckTest extends AbstractFsckTest {
    @Override
    protected MetaStore createStore() {
        return new MemoryMetaStore();
    }

    @Override
    protected boolean keepsInodeCounter() {
        return false;
    }

    @Override
    protected Damage damage(MetaStore store) {
        MemoryMetaStore memory = (MemoryMetaStore) store;
        return new Damage() {
            @Override
            public void setNlink(long ino, int nlink) {
                change(() -> memory.nodes.get(ino).nlink = nlink);
            }

            @Override
            public void forgetNames(long ino) {
                change(() -> memory.nodes.get(ino).links.clear());
            }

            @Override
            public void setPrimaryLink(long ino, long parent, String name) {
                change(() -> {
                    memory.nodes.get(ino).parent = parent;
                    memory.nodes.get(ino).name = name;
                });
            }

            @Override
            public void addEntry(long parent, String name, long ino, InodeType type) {
                change(() -> memory.nodes.get(parent).children.put(name, new Dentry(parent, name, ino, type)));
            }

            @Override
            public void removeEntry(long parent, String name) {
                change(() -> memory.nodes.get(parent).children.remove(name));
            }

            @Override
            public void setUsedBytes(long usedBytes) {
                change(() -> memory.nodes.usedBytes = usedBytes);
            }

            @Override
            public void setInodeCount(long inodes) {
                throw new UnsupportedOperationException("the memory engine's inode count is the size of its map");
            }

            private void change(Runnable change) {
                memory.lock.writeLock().lock();
                try {
                    change.run();
                } finally {
                    memory.lock.writeLock().unlock();
                }
            }
        };
    }
}
