package io.strata.meta.memory;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.memory.MemoryNode.Link;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The memory engine's inodes by number with their counters (the next inode number, the bytes
 * used), the changes of the tree that several operations share (a new node, a link or a directory
 * removed), and the lookups that fail as POSIX says: a missing inode or name is ENOENT, a file
 * where a directory belongs ENOTDIR. Guarded by the store's lock, as everything in this package.
 */
final class InodeTable {
    private final Map<Long, MemoryNode> nodes = new HashMap<>();
    long nextInode = Inode.ROOT + 1;
    /** The sum of the files' sizes. */
    long usedBytes;

    MemoryNode get(long ino) {
        return nodes.get(ino);
    }

    boolean containsKey(long ino) {
        return nodes.containsKey(ino);
    }

    void put(long ino, MemoryNode node) {
        nodes.put(ino, node);
    }

    void remove(long ino) {
        nodes.remove(ino);
    }

    int size() {
        return nodes.size();
    }

    Collection<MemoryNode> values() {
        return nodes.values();
    }

    void clear() {
        nodes.clear();
    }

    // --- changes shared by several operations; callers hold the write lock and have checked everything

    MemoryNode add(MemoryNode dir, String name, NewInode spec, long syncedNs) {
        long ino = nextInode++;
        MemoryNode node = new MemoryNode(Inode.fromSpec(ino, dir.ino, name, spec, syncedNs), spec.symlinkTarget());
        nodes.put(ino, node);
        dir.children.put(name, new Dentry(dir.ino, name, ino, spec.type()));
        node.links.add(new Link(dir.ino, name));
        if (node.isDirectory()) {
            dir.nlink++;
        }
        if (node.type == InodeType.FILE) {
            usedBytes += node.size;
        }
        return node;
    }

    RemovedLink removeLink(MemoryNode dir, String name, MemoryNode node, long nowNs) {
        dir.children.remove(name);
        node.links.remove(new Link(dir.ino, name));
        node.nlink--;
        node.ctimeNs = nowNs;
        boolean wasPrimary = node.isPrimaryLink(dir.ino, name);
        if (node.nlink <= 0 || node.links.isEmpty()) {
            node.nlink = 0;
            delete(node);
        } else if (wasPrimary) {
            Link next = node.links.first();
            node.parent = next.parent();
            node.name = next.name();
        }
        return new RemovedLink(node.toInode(), wasPrimary);
    }

    Inode removeDirectory(MemoryNode dir, String name, MemoryNode node, long nowNs) {
        dir.children.remove(name);
        dir.nlink--;
        node.nlink = 0;
        node.ctimeNs = nowNs;
        delete(node);
        return node.toInode();
    }

    private void delete(MemoryNode node) {
        nodes.remove(node.ino);
        if (node.type == InodeType.FILE) {
            usedBytes -= node.size;
        }
    }

    // --- lookups

    MemoryNode node(long ino) throws FsException {
        MemoryNode node = nodes.get(ino);
        if (node == null) {
            throw FsException.notFound("inode " + ino);
        }
        return node;
    }

    MemoryNode directory(long ino) throws FsException {
        MemoryNode node = node(ino);
        if (!node.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "inode " + ino);
        }
        return node;
    }

    MemoryNode child(MemoryNode dir, String name) throws FsException {
        Dentry dentry = dir.children.get(name);
        if (dentry == null) {
            throw FsException.notFound(describe(dir.ino, name));
        }
        return nodes.get(dentry.ino());
    }

    /** EINVAL if {@code dir} is {@code ancestor} or below it: walk up through the parents' primary links. */
    void checkNotIntoOwnSubtree(long ancestor, long dir) throws FsException {
        for (long current = dir; ; current = nodes.get(current).parent) {
            if (current == ancestor) {
                throw new FsException(FsError.EINVAL, "cannot move directory " + ancestor + " into its own subtree");
            }
            if (current == Inode.ROOT) {
                return;
            }
        }
    }

    static String describe(long parent, String name) {
        return "'" + name + "' in directory " + parent;
    }
}
