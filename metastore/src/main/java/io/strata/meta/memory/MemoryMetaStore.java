package io.strata.meta.memory;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeFormat;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.fsck.FsckTarget;
import io.strata.meta.memory.MemoryNode.Link;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import static java.util.Objects.requireNonNull;

/**
 * The in-memory {@link MetaStore} engine ({@code memory://}).
 *
 * <p>Layout: {@code nodes} maps every inode number to its {@link MemoryNode}; a directory node
 * holds its entries in a {@code TreeMap} by name (readdir pages with {@code tailMap}), every node
 * its sorted names and its xattrs. Counters: {@code nextInode} and {@code nodes.usedBytes} fields, the
 * inode count is {@code nodes.size()}. One read-write lock: reads share it, every change holds it
 * exclusively and checks all its preconditions before changing anything, so a failed call
 * changes nothing.
 */
@SuppressWarnings("try") // the lock guards in try-with-resources are only closed, never read
public final class MemoryMetaStore implements MetaStore {
    // package-private for MemoryDumpSource and MemoryLoadTarget, which reads and writes them under the same lock
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final InodeTable nodes = new InodeTable();
    final Map<String, String> settings = new TreeMap<>();
    boolean closed;

    public MemoryMetaStore() {
        long now = System.currentTimeMillis() * 1_000_000L;
        Inode root = new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, now, now, now, 2, 0, 0, Inode.ROOT, "",
                null, Inode.NEVER_SYNCED);
        nodes.put(Inode.ROOT, new MemoryNode(root, null));
        settings.put(VolumeFormat.VERSION_KEY, Integer.toString(VolumeFormat.VERSION));
    }

    @Override
    public Inode getInode(long ino) throws IOException {
        try (var ignored = read()) {
            return nodes.node(ino).toInode();
        }
    }

    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        requireNonNull(name, "name is null");
        try (var ignored = read()) {
            return Optional.ofNullable(nodes.directory(parent).children.get(name));
        }
    }

    /** Every read is in this process: a page with its inodes costs next to nothing. */
    @Override
    public boolean readdirPlusIsOneRead() {
        return true;
    }

    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        checkLimit(limit);
        try (var ignored = read()) {
            var children = nodes.directory(dir).children;
            var page = after == null ? children : children.tailMap(after, false);
            List<Dentry> result = new ArrayList<>(Math.min(limit, page.size()));
            for (Dentry dentry : page.values()) {
                if (result.size() == limit) {
                    break;
                }
                result.add(dentry);
            }
            return result;
        }
    }

    @Override
    public Inode create(long parent, String name, NewInode spec) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(spec, "spec is null");
        try (var ignored = write()) {
            MemoryNode dir = nodes.directory(parent);
            if (dir.children.containsKey(name)) {
                throw FsException.exists(InodeTable.describe(parent, name));
            }
            long syncedNs = spec.type() == InodeType.DIRECTORY ? spec.timeNs() : Inode.NEVER_SYNCED;
            MemoryNode node = nodes.add(dir, name, spec, syncedNs);
            dir.touch(spec.timeNs());
            return node.toInode();
        }
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        try (var ignored = write()) {
            MemoryNode node = nodes.node(ino);
            MemoryNode dir = nodes.directory(parent);
            // link(2) reports a taken name before looking at what the source is
            if (dir.children.containsKey(name)) {
                throw FsException.exists(InodeTable.describe(parent, name));
            }
            if (node.isDirectory()) {
                throw new FsException(FsError.EPERM, "hard link to directory " + ino);
            }
            dir.children.put(name, new Dentry(parent, name, ino, node.type));
            node.links.add(new Link(parent, name));
            node.nlink++;
            node.ctimeNs = nowNs;
            dir.touch(nowNs);
            return node.toInode();
        }
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        try (var ignored = write()) {
            MemoryNode dir = nodes.directory(parent);
            MemoryNode node = nodes.child(dir, name);
            if (node.isDirectory()) {
                throw new FsException(FsError.EISDIR, InodeTable.describe(parent, name));
            }
            RemovedLink removed = nodes.removeLink(dir, name, node, nowNs);
            dir.touch(nowNs);
            return removed;
        }
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        try (var ignored = write()) {
            MemoryNode dir = nodes.directory(parent);
            MemoryNode node = nodes.child(dir, name);
            checkRemovableDirectory(node, parent, name);
            Inode removed = nodes.removeDirectory(dir, name, node, nowNs);
            dir.touch(nowNs);
            return removed;
        }
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        requireNonNull(srcName, "srcName is null");
        requireNonNull(dstName, "dstName is null");
        try (var ignored = write()) {
            MemoryNode srcDir = nodes.directory(srcParent);
            MemoryNode dstDir = nodes.directory(dstParent);
            MemoryNode moved = nodes.child(srcDir, srcName);
            Dentry target = dstDir.children.get(dstName);
            if (target != null && target.ino() == moved.ino) {
                // two names of one inode (or the same name): rename(2) does nothing
                return new Renamed(moved.toInode(), false, Optional.empty());
            }
            if (moved.isDirectory()) {
                nodes.checkNotIntoOwnSubtree(moved.ino, dstParent);
            }
            MemoryNode replacedNode = target == null ? null : nodes.get(target.ino());
            if (replacedNode != null) {
                if (moved.isDirectory() && !replacedNode.isDirectory()) {
                    throw new FsException(FsError.ENOTDIR, "cannot replace non-directory " + InodeTable.describe(dstParent,
                            dstName) + " with a directory");
                }
                if (!moved.isDirectory() && replacedNode.isDirectory()) {
                    throw new FsException(FsError.EISDIR, "cannot replace directory " + InodeTable.describe(dstParent,
                            dstName) + " with a non-directory");
                }
                if (replacedNode.isDirectory()) {
                    checkRemovableDirectory(replacedNode, dstParent, dstName);
                }
            }

            // every check passed: from here on nothing fails
            Optional<RemovedLink> replaced = Optional.empty();
            if (replacedNode != null) {
                replaced = Optional.of(replacedNode.isDirectory()
                        ? new RemovedLink(nodes.removeDirectory(dstDir, dstName, replacedNode, nowNs), true)
                        : nodes.removeLink(dstDir, dstName, replacedNode, nowNs));
            }
            srcDir.children.remove(srcName);
            moved.links.remove(new Link(srcParent, srcName));
            dstDir.children.put(dstName, new Dentry(dstParent, dstName, moved.ino, moved.type));
            moved.links.add(new Link(dstParent, dstName));
            boolean wasPrimary = moved.isPrimaryLink(srcParent, srcName);
            if (wasPrimary) {
                moved.parent = dstParent;
                moved.name = dstName;
            }
            if (moved.isDirectory() && srcParent != dstParent) {
                srcDir.nlink--;
                dstDir.nlink++;
            }
            moved.ctimeNs = nowNs;
            srcDir.touch(nowNs);
            dstDir.touch(nowNs);
            return new Renamed(moved.toInode(), wasPrimary, replaced);
        }
    }

    @Override
    public Inode setAttr(long ino, SetAttr change) throws IOException {
        requireNonNull(change, "change is null");
        checkSetAttr(change);
        try (var ignored = write()) {
            MemoryNode node = nodes.node(ino);
            if (change.mode() != null) {
                node.mode = change.mode();
            }
            if (change.uid() != null) {
                node.uid = change.uid();
            }
            if (change.gid() != null) {
                node.gid = change.gid();
            }
            if (change.size() != null) {
                if (node.type == InodeType.FILE) {
                    nodes.usedBytes += change.size() - node.size;
                }
                node.size = change.size();
            }
            if (change.atimeNs() != null) {
                node.atimeNs = change.atimeNs();
            }
            if (change.mtimeNs() != null) {
                node.mtimeNs = change.mtimeNs();
            }
            node.ctimeNs = change.ctimeNs();
            if (change.ufsVersion() != null) {
                node.ufsVersion = change.ufsVersion();
            }
            return node.toInode();
        }
    }

    @Override
    public String readlink(long ino) throws IOException {
        try (var ignored = read()) {
            MemoryNode node = nodes.node(ino);
            if (node.type != InodeType.SYMLINK) {
                throw new FsException(FsError.EINVAL, "not a symlink: inode " + ino);
            }
            return node.symlinkTarget;
        }
    }

    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        try (var ignored = read()) {
            return Optional.ofNullable(nodes.node(ino).xattrs.get(name)).map(byte[]::clone);
        }
    }

    @Override
    public void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        requireNonNull(mode, "mode is null");
        try (var ignored = write()) {
            MemoryNode node = nodes.node(ino);
            boolean present = node.xattrs.containsKey(name);
            if (mode == XattrMode.CREATE && present) {
                throw FsException.exists("xattr " + name + " of inode " + ino);
            }
            if (mode == XattrMode.REPLACE && !present) {
                throw new FsException(FsError.ENODATA, "xattr " + name + " of inode " + ino);
            }
            node.xattrs.put(name, value.clone());
        }
    }

    @Override
    public List<String> listXattrs(long ino) throws IOException {
        try (var ignored = read()) {
            return List.copyOf(nodes.node(ino).xattrs.keySet());
        }
    }

    @Override
    public void removeXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        try (var ignored = write()) {
            if (nodes.node(ino).xattrs.remove(name) == null) {
                throw new FsException(FsError.ENODATA, "xattr " + name + " of inode " + ino);
            }
        }
    }

    @Override
    public int mergeListing(long dir, List<ListedEntry> entries) throws IOException {
        requireNonNull(entries, "entries is null");
        try (var ignored = write()) {
            MemoryNode directory = nodes.directory(dir);
            int added = 0;
            for (ListedEntry entry : entries) {
                if (!directory.children.containsKey(entry.name())) {
                    // a directory found in the listing has a listing of its own still to merge
                    nodes.add(directory, entry.name(), entry.spec(), Inode.NEVER_SYNCED);
                    added++;
                }
            }
            return added;
        }
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        try (var ignored = write()) {
            nodes.directory(dir).syncedNs = syncedNs;
        }
    }

    @Override
    public VolumeStats stats() throws IOException {
        try (var ignored = read()) {
            return new VolumeStats(nodes.size(), nodes.usedBytes);
        }
    }

    @Override
    public Optional<String> getSetting(String key) throws IOException {
        requireNonNull(key, "key is null");
        try (var ignored = read()) {
            return Optional.ofNullable(settings.get(key));
        }
    }

    @Override
    public void putSetting(String key, String value) throws IOException {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        VolumeFormat.checkWritable(key);
        try (var ignored = write()) {
            settings.put(key, value);
        }
    }

    @Override
    public DumpSource dumpSource() throws IOException {
        return new MemoryDumpSource(this);
    }

    @Override
    public LoadTarget loadTarget() {
        return new MemoryLoadTarget(this);
    }

    @Override
    public FsckTarget fsckTarget() {
        return new MemoryFsck(this);
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            closed = true;
            nodes.clear();
            settings.clear();
        } finally {
            lock.writeLock().unlock();
        }
    }

    // --- checks

    private void checkRemovableDirectory(MemoryNode node, long parent, String name) throws FsException {
        if (!node.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, InodeTable.describe(parent, name));
        }
        if (!node.children.isEmpty()) {
            throw new FsException(FsError.ENOTEMPTY, InodeTable.describe(parent, name));
        }
    }

    private static void checkSetAttr(SetAttr change) throws FsException {
        if (change.mode() != null && (change.mode() & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: 0" + Integer.toOctalString(change.mode()));
        }
        if (change.size() != null && change.size() < 0) {
            throw new FsException(FsError.EINVAL, "negative size " + change.size());
        }
    }

    private static void checkLimit(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
    }

    // --- locking: try-with-resources keeps every unlock next to its lock

    private Held read() throws IOException {
        return hold(lock.readLock());
    }

    private Held write() throws IOException {
        return hold(lock.writeLock());
    }

    private Held hold(Lock held) throws IOException {
        held.lock();
        if (closed) {
            held.unlock();
            throw new IOException("metastore is closed");
        }
        return held::unlock;
    }

    private interface Held extends AutoCloseable {
        @Override
        void close();
    }
}
