package io.strata.meta;

import io.strata.core.fs.FsError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately naive namespace for the random operations test: plain maps, the errors each
 * operation ends with written out in POSIX order, nlink and counters computed from the tree
 * rather than kept up to date. Inode numbers are the store's, so paths map to the same numbers
 * on both sides.
 */
final class ReferenceModel {
    /** One inode of the model; {@code parent}/{@code name} is the primary link. */
    static final class Node {
        final long ino;
        final InodeType type;
        int mode;
        long size;
        long parent;
        String name;
        final NavigableSet<Link> links = new TreeSet<>();
        final NavigableMap<String, Long> children = new TreeMap<>();
        final NavigableMap<String, byte[]> xattrs = new TreeMap<>();

        Node(long ino, InodeType type, int mode, long size, long parent, String name) {
            this.ino = ino;
            this.type = type;
            this.mode = mode;
            this.size = size;
            this.parent = parent;
            this.name = name;
        }

        boolean isDirectory() {
            return type == InodeType.DIRECTORY;
        }
    }

    record Link(long parent, String name) implements Comparable<Link> {
        @Override
        public int compareTo(Link other) {
            return parent != other.parent ? Long.compare(parent, other.parent) : name.compareTo(other.name);
        }
    }

    /** What a path shows: compared between the model and the store. */
    record Entry(long ino, InodeType type, int nlink, long size, int mode, Link primary, List<String> xattrs) {}

    final Map<Long, Node> nodes = new HashMap<>();

    ReferenceModel() {
        nodes.put(Inode.ROOT, new Node(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, Inode.ROOT, ""));
    }

    Node node(long ino) {
        return nodes.get(ino);
    }

    int nlink(Node node) {
        if (!node.isDirectory()) {
            return node.links.size();
        }
        int subdirectories = 0;
        for (long child : node.children.values()) {
            subdirectories += nodes.get(child).isDirectory() ? 1 : 0;
        }
        return 2 + subdirectories;
    }

    VolumeStats stats() {
        long used = nodes.values().stream().filter(n -> n.type == InodeType.FILE).mapToLong(n -> n.size).sum();
        return new VolumeStats(nodes.size(), used);
    }

    /** Every path below the root (as "/a/b") with what it shows. */
    Map<String, Entry> tree() {
        Map<String, Entry> tree = new TreeMap<>();
        walk(nodes.get(Inode.ROOT), "", tree);
        return tree;
    }

    private void walk(Node dir, String path, Map<String, Entry> tree) {
        for (var child : dir.children.entrySet()) {
            Node node = nodes.get(child.getValue());
            String childPath = path + "/" + child.getKey();
            tree.put(childPath, new Entry(node.ino, node.type, nlink(node), node.size, node.mode,
                    new Link(node.parent, node.name), List.copyOf(node.xattrs.keySet())));
            if (node.isDirectory()) {
                walk(node, childPath, tree);
            }
        }
    }

    // --- the error each operation ends with, or null for success

    FsError directoryError(long ino) {
        Node node = nodes.get(ino);
        return node == null ? FsError.ENOENT : node.isDirectory() ? null : FsError.ENOTDIR;
    }

    FsError checkCreate(long parent, String name) {
        FsError error = directoryError(parent);
        if (error != null) {
            return error;
        }
        return nodes.get(parent).children.containsKey(name) ? FsError.EEXIST : null;
    }

    FsError checkLink(long ino, long parent, String name) {
        if (!nodes.containsKey(ino)) {
            return FsError.ENOENT;
        }
        FsError error = checkCreate(parent, name);
        if (error != null) {
            return error;
        }
        return nodes.get(ino).isDirectory() ? FsError.EPERM : null;
    }

    FsError checkUnlink(long parent, String name) {
        FsError error = directoryError(parent);
        if (error != null) {
            return error;
        }
        Long child = nodes.get(parent).children.get(name);
        if (child == null) {
            return FsError.ENOENT;
        }
        return nodes.get(child).isDirectory() ? FsError.EISDIR : null;
    }

    FsError checkRmdir(long parent, String name) {
        FsError error = directoryError(parent);
        if (error != null) {
            return error;
        }
        Long child = nodes.get(parent).children.get(name);
        if (child == null) {
            return FsError.ENOENT;
        }
        Node node = nodes.get(child);
        if (!node.isDirectory()) {
            return FsError.ENOTDIR;
        }
        return node.children.isEmpty() ? null : FsError.ENOTEMPTY;
    }

    FsError checkRename(long srcParent, String srcName, long dstParent, String dstName) {
        FsError error = directoryError(srcParent);
        if (error == null) {
            error = directoryError(dstParent);
        }
        if (error != null) {
            return error;
        }
        Long source = nodes.get(srcParent).children.get(srcName);
        if (source == null) {
            return FsError.ENOENT;
        }
        Long target = nodes.get(dstParent).children.get(dstName);
        if (source.equals(target)) {
            return null;
        }
        Node moved = nodes.get(source);
        if (moved.isDirectory() && subtree(moved).contains(dstParent)) {
            return FsError.EINVAL;
        }
        if (target == null) {
            return null;
        }
        Node replaced = nodes.get(target);
        if (moved.isDirectory() && !replaced.isDirectory()) {
            return FsError.ENOTDIR;
        }
        if (!moved.isDirectory() && replaced.isDirectory()) {
            return FsError.EISDIR;
        }
        return replaced.isDirectory() && !replaced.children.isEmpty() ? FsError.ENOTEMPTY : null;
    }

    /** The directory and every directory below it, found walking down (not up, as the engines do). */
    private Set<Long> subtree(Node dir) {
        Set<Long> found = new TreeSet<>();
        List<Node> pending = new ArrayList<>(List.of(dir));
        while (!pending.isEmpty()) {
            Node next = pending.remove(pending.size() - 1);
            found.add(next.ino);
            for (long child : next.children.values()) {
                if (nodes.get(child).isDirectory()) {
                    pending.add(nodes.get(child));
                }
            }
        }
        return found;
    }

    // --- applying an operation that succeeded; callers checked first

    void create(long parent, String name, long ino, InodeType type, int mode, long size) {
        Node node = new Node(ino, type, mode, size, parent, name);
        nodes.put(ino, node);
        addName(node, parent, name);
    }

    void link(long ino, long parent, String name) {
        addName(nodes.get(ino), parent, name);
    }

    /**
     * Removes a non-directory name and returns whether it was the primary link. A primary link
     * that moves is left pointing at the removed name: the store chooses where it goes and the
     * caller adopts that with {@link #movePrimary}.
     */
    boolean unlink(long parent, String name) {
        Node node = nodes.get(nodes.get(parent).children.get(name));
        removeName(node, parent, name);
        if (node.links.isEmpty()) {
            nodes.remove(node.ino);
        }
        return node.parent == parent && node.name.equals(name);
    }

    void movePrimary(long ino, Link to) {
        Node node = nodes.get(ino);
        if (!node.links.contains(to)) {
            throw new AssertionError("primary link of " + ino + " moved to " + to + ", not one of " + node.links);
        }
        node.parent = to.parent();
        node.name = to.name();
    }

    void rmdir(long parent, String name) {
        Node node = nodes.get(nodes.get(parent).children.get(name));
        removeName(node, parent, name);
        nodes.remove(node.ino);
    }

    /** Moves a name (the target already removed by the caller) and returns whether it was the primary link. */
    boolean move(long srcParent, String srcName, long dstParent, String dstName) {
        Node node = nodes.get(nodes.get(srcParent).children.get(srcName));
        removeName(node, srcParent, srcName);
        addName(node, dstParent, dstName);
        boolean wasPrimary = node.parent == srcParent && node.name.equals(srcName);
        if (wasPrimary) {
            node.parent = dstParent;
            node.name = dstName;
        }
        return wasPrimary;
    }

    private void addName(Node node, long parent, String name) {
        nodes.get(parent).children.put(name, node.ino);
        node.links.add(new Link(parent, name));
    }

    private void removeName(Node node, long parent, String name) {
        nodes.get(parent).children.remove(name);
        node.links.remove(new Link(parent, name));
    }
}
