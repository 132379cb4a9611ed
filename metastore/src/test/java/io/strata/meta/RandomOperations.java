package io.strata.meta;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.MetaStore.ListedEntry;
import io.strata.meta.ReferenceModel.Entry;
import io.strata.meta.ReferenceModel.Link;
import io.strata.meta.ReferenceModel.Node;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Drives a store and a {@link ReferenceModel} through the same seeded random operations,
 * comparing each outcome (the result or the errno) and, every {@link #COMPARE_EVERY} steps and
 * at the end, the whole tree. A failure names the seed, the step and the operation.
 */
final class RandomOperations {
    private static final int COMPARE_EVERY = 100;
    /** Few names, so operations collide often (EEXIST, replacing renames, hard links). */
    private static final String[] NAMES = {"a", "b", "c", "d", "e"};
    private static final String[] XATTRS = {"user.x", "user.y"};
    private static final long MISSING_INODE = 1_000_000_000L;

    private final MetaStore store;
    private final long seed;
    private final Random random;
    private final ReferenceModel model = new ReferenceModel();
    private long clock = 1_000_000_000L;
    private int step;
    private String operation = "";

    RandomOperations(MetaStore store, long seed) {
        this.store = store;
        this.seed = seed;
        this.random = new Random(seed);
    }

    void run(int steps) throws IOException {
        for (step = 1; step <= steps; step++) {
            runOne();
            if (step % COMPARE_EVERY == 0) {
                compareTrees();
            }
        }
        operation = "final comparison";
        compareTrees();
    }

    private void runOne() throws IOException {
        int dice = random.nextInt(100);
        if (dice < 18) {
            create(InodeType.FILE);
        } else if (dice < 28) {
            create(InodeType.DIRECTORY);
        } else if (dice < 32) {
            mergeListing();
        } else if (dice < 40) {
            link();
        } else if (dice < 54) {
            unlink();
        } else if (dice < 60) {
            rmdir();
        } else if (dice < 80) {
            rename();
        } else if (dice < 88) {
            setAttr();
        } else {
            xattr();
        }
    }

    private void create(InodeType type) throws IOException {
        long parent = pickDirectory();
        String name = pickName();
        int mode = random.nextInt(01000);
        long size = type == InodeType.FILE ? random.nextInt(10_000) : 0;
        long now = tick();
        operation = "create " + type + " " + describe(parent, name);
        NewInode spec = new NewInode(type, mode, 0, 0, 0, size, now, now, null, null);
        Inode created = expect(model.checkCreate(parent, name), () -> store.create(parent, name, spec));
        if (created != null) {
            model.create(parent, name, created.ino(), type, mode, size);
            assertEquals(model.nlink(model.node(created.ino())), created.nlink(), where("nlink"));
        }
    }

    private void mergeListing() throws IOException {
        long dir = pickDirectory();
        List<ListedEntry> entries = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            InodeType type = random.nextBoolean() ? InodeType.FILE : InodeType.DIRECTORY;
            long size = type == InodeType.FILE ? random.nextInt(10_000) : 0;
            entries.add(new ListedEntry(pickName(), new NewInode(type, 0644, 0, 0, 0, size, tick(), 5, null, "v1")));
        }
        operation = "mergeListing " + dir + " " + entries.stream().map(ListedEntry::name).toList();
        Integer added = expect(model.directoryError(dir), () -> store.mergeListing(dir, entries));
        if (added == null) {
            return;
        }
        int expectedAdded = 0;
        for (ListedEntry entry : entries) {
            if (!model.node(dir).children.containsKey(entry.name())) {
                long ino = store.lookup(dir, entry.name()).orElseThrow().ino();
                model.create(dir, entry.name(), ino, entry.spec().type(), entry.spec().mode(), entry.spec().size());
                expectedAdded++;
            }
        }
        assertEquals(expectedAdded, added, where("entries added"));
    }

    private void link() throws IOException {
        long ino = pickInode();
        long parent = pickDirectory();
        String name = pickName();
        operation = "link " + ino + " as " + describe(parent, name);
        Inode linked = expect(model.checkLink(ino, parent, name), () -> store.link(ino, parent, name, tick()));
        if (linked != null) {
            model.link(ino, parent, name);
            assertEquals(model.nlink(model.node(ino)), linked.nlink(), where("nlink"));
        }
    }

    private void unlink() throws IOException {
        Link picked = pickEntry();
        long parent = picked.parent();
        String name = picked.name();
        operation = "unlink " + describe(parent, name);
        RemovedLink removed = expect(model.checkUnlink(parent, name), () -> store.unlink(parent, name, tick()));
        if (removed != null) {
            applyRemoval(parent, name, removed);
        }
    }

    private void rmdir() throws IOException {
        Link picked = random.nextBoolean() ? pickEntry() : pickEmptyDirectory();
        long parent = picked.parent();
        String name = picked.name();
        operation = "rmdir " + describe(parent, name);
        Inode removed = expect(model.checkRmdir(parent, name), () -> store.rmdir(parent, name, tick()));
        if (removed != null) {
            model.rmdir(parent, name);
        }
    }

    private void rename() throws IOException {
        Link picked = pickEntry();
        long srcParent = picked.parent();
        String srcName = picked.name();
        long dstParent = pickDirectory();
        String dstName = pickName();
        operation = "rename " + describe(srcParent, srcName) + " to " + describe(dstParent, dstName);
        Renamed renamed = expect(model.checkRename(srcParent, srcName, dstParent, dstName),
                () -> store.rename(srcParent, srcName, dstParent, dstName, tick()));
        if (renamed == null) {
            return;
        }
        Long source = model.node(srcParent).children.get(srcName);
        Long target = model.node(dstParent).children.get(dstName);
        assertEquals(source, renamed.moved().ino(), where("moved inode"));
        if (source.equals(target)) {
            assertEquals(false, renamed.wasPrimary(), where("wasPrimary of a rename that changes nothing"));
            assertTrue(renamed.replaced().isEmpty(), where("replaced of a rename that changes nothing"));
            return;
        }
        assertEquals(target != null, renamed.replaced().isPresent(), where("whether a target was replaced"));
        if (target != null && model.node(target).isDirectory()) {
            model.rmdir(dstParent, dstName);
            assertTrue(renamed.replaced().get().deleted(), where("replaced directory deleted"));
        } else if (target != null) {
            applyRemoval(dstParent, dstName, renamed.replaced().get());
        }
        boolean wasPrimary = model.move(srcParent, srcName, dstParent, dstName);
        assertEquals(wasPrimary, renamed.wasPrimary(), where("wasPrimary"));
    }

    private void setAttr() throws IOException {
        long ino = pickInode();
        boolean changeMode = random.nextBoolean();
        int mode = random.nextInt(010000);
        long size = random.nextInt(10_000);
        long now = tick();
        SetAttr change = changeMode ? SetAttr.mode(mode, now) : SetAttr.content(size, now, "v" + now);
        operation = "setAttr " + ino + " " + change;
        Inode changed = expect(model.node(ino) == null ? FsError.ENOENT : null, () -> store.setAttr(ino, change));
        if (changed != null) {
            Node node = model.node(ino);
            if (changeMode) {
                node.mode = mode;
            } else {
                node.size = size;
            }
            assertEquals(node.mode, changed.mode(), where("mode"));
            assertEquals(node.size, changed.size(), where("size"));
        }
    }

    private void xattr() throws IOException {
        long ino = pickInode();
        String name = XATTRS[random.nextInt(XATTRS.length)];
        Node node = model.node(ino);
        byte[] present = node == null ? null : node.xattrs.get(name);
        switch (random.nextInt(3)) {
            case 0 -> {
                XattrMode mode = XattrMode.values()[random.nextInt(XattrMode.values().length)];
                byte[] value = new byte[random.nextInt(8)];
                random.nextBytes(value);
                operation = "setXattr " + ino + " " + name + " " + mode;
                FsError expected = node == null ? FsError.ENOENT
                        : mode == XattrMode.CREATE && present != null ? FsError.EEXIST
                        : mode == XattrMode.REPLACE && present == null ? FsError.ENODATA : null;
                if (expect(expected, () -> done(() -> store.setXattr(ino, name, value, mode))) != null) {
                    node.xattrs.put(name, value);
                }
            }
            case 1 -> {
                operation = "removeXattr " + ino + " " + name;
                FsError expected = node == null ? FsError.ENOENT : present == null ? FsError.ENODATA : null;
                if (expect(expected, () -> done(() -> store.removeXattr(ino, name))) != null) {
                    node.xattrs.remove(name);
                }
            }
            default -> {
                operation = "getXattr " + ino + " " + name;
                Optional<byte[]> value = expect(node == null ? FsError.ENOENT : null, () -> store.getXattr(ino, name));
                if (value != null) {
                    assertArrayEquals(present, value.orElse(null), where("xattr value"));
                }
            }
        }
    }

    /** Brings the model along after the store removed a non-directory name (unlink, or replaced by rename). */
    private void applyRemoval(long parent, String name, RemovedLink removed) {
        long ino = model.node(parent).children.get(name);
        assertEquals(ino, removed.inode().ino(), where("removed inode"));
        boolean wasPrimary = model.unlink(parent, name);
        assertEquals(wasPrimary, removed.wasPrimary(), where("wasPrimary"));
        Node node = model.node(ino);
        assertEquals(node == null, removed.deleted(), where("inode deleted with its last name"));
        if (node != null) {
            assertEquals(model.nlink(node), removed.inode().nlink(), where("nlink"));
            if (wasPrimary) {
                model.movePrimary(ino, new Link(removed.inode().parent(), removed.inode().name()));
            }
        }
    }

    private void compareTrees() throws IOException {
        try {
            NamespaceInvariants.check(store);
        } catch (AssertionError e) {
            throw new AssertionError(where("invariant broken: " + e.getMessage()), e);
        }
        assertEquals(model.tree(), storeTree(), where("tree"));
        assertEquals(model.stats(), store.stats(), where("stats"));
    }

    private Map<String, Entry> storeTree() throws IOException {
        Map<String, Entry> tree = new TreeMap<>();
        walk(Inode.ROOT, "", tree);
        return tree;
    }

    private void walk(long dir, String path, Map<String, Entry> tree) throws IOException {
        for (Dentry dentry : NamespaceInvariants.readAll(store, dir)) {
            Inode inode = store.getInode(dentry.ino());
            String childPath = path + "/" + dentry.name();
            tree.put(childPath, new Entry(inode.ino(), inode.type(), inode.nlink(), inode.size(), inode.mode(),
                    new Link(inode.parent(), inode.name()), store.listXattrs(inode.ino())));
            if (inode.isDirectory()) {
                walk(inode.ino(), childPath, tree);
            }
        }
    }

    // --- picking arguments: mostly valid, sometimes a file or a missing inode to reach the errors

    private long pickDirectory() {
        int dice = random.nextInt(100);
        if (dice < 5) {
            return MISSING_INODE;
        }
        if (dice < 12) {
            return pickInode();
        }
        List<Long> directories = model.nodes.values().stream().filter(Node::isDirectory).map(n -> n.ino)
                .sorted().toList();
        return directories.get(random.nextInt(directories.size()));
    }

    private long pickInode() {
        if (random.nextInt(100) < 3) {
            return MISSING_INODE;
        }
        List<Long> inodes = model.nodes.keySet().stream().sorted().toList();
        return inodes.get(random.nextInt(inodes.size()));
    }

    /** Mostly an existing name, so removals and renames get past ENOENT; otherwise any. */
    private Link pickEntry() {
        if (random.nextInt(100) < 40) {
            return new Link(pickDirectory(), pickName());
        }
        List<Link> entries = new ArrayList<>();
        model.nodes.values().stream().filter(Node::isDirectory).sorted((a, b) -> Long.compare(a.ino, b.ino))
                .forEach(dir -> dir.children.keySet().forEach(name -> entries.add(new Link(dir.ino, name))));
        return entries.isEmpty() ? new Link(Inode.ROOT, pickName()) : entries.get(random.nextInt(entries.size()));
    }

    /** The name of an empty directory, or of the root's "a" when there is none. */
    private Link pickEmptyDirectory() {
        List<Link> empty = model.nodes.values().stream()
                .filter(n -> n.isDirectory() && n.ino != Inode.ROOT && n.children.isEmpty())
                .sorted((a, b) -> Long.compare(a.ino, b.ino)).map(n -> new Link(n.parent, n.name)).toList();
        return empty.isEmpty() ? new Link(Inode.ROOT, "a") : empty.get(random.nextInt(empty.size()));
    }

    private String pickName() {
        return NAMES[random.nextInt(NAMES.length)];
    }

    private long tick() {
        return clock += 1_000;
    }

    /** Runs a call expected to end with {@code expected} (null: success); returns its result, or null if it failed. */
    private <T> T expect(FsError expected, Call<T> call) throws IOException {
        T result;
        try {
            result = call.run();
        } catch (FsException e) {
            if (e.error() != expected) {
                fail(where("expected " + (expected == null ? "success" : expected) + " but got " + e.getMessage()), e);
            }
            return null;
        }
        if (expected != null) {
            fail(where("expected " + expected + " but it succeeded: " + result));
        }
        return result;
    }

    private static Boolean done(VoidCall call) throws IOException {
        call.run();
        return Boolean.TRUE;
    }

    private String where(String what) {
        return "seed " + seed + ", step " + step + " (" + operation + "): " + what;
    }

    private static String describe(long parent, String name) {
        return parent + "/" + name;
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }

    @FunctionalInterface
    private interface VoidCall {
        void run() throws IOException;
    }
}
