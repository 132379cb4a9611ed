package io.strata.meta;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The invariants every engine keeps between operations, checked by walking the whole tree:
 * dentry types match their inodes, a directory's nlink is 2 plus its subdirectories, a file's
 * nlink is its number of names, the primary link is one of those names, and the counters equal
 * what the tree holds.
 */
final class NamespaceInvariants {
    /** Small, so the walk pages through every directory with more than a few entries. */
    private static final int PAGE = 3;

    private NamespaceInvariants() {}

    static void check(MetaStore store) throws IOException {
        Map<Long, Inode> inodes = new HashMap<>();
        Map<Long, List<Dentry>> names = new HashMap<>();
        inodes.put(Inode.ROOT, store.getInode(Inode.ROOT));
        Deque<Long> directories = new ArrayDeque<>(List.of(Inode.ROOT));
        while (!directories.isEmpty()) {
            long dir = directories.pop();
            int subdirectories = 0;
            for (Dentry dentry : readAll(store, dir)) {
                Inode inode = inodes.get(dentry.ino());
                if (inode == null) {
                    inode = store.getInode(dentry.ino());
                    inodes.put(inode.ino(), inode);
                }
                assertEquals(inode.type(), dentry.type(), "type of " + dentry);
                names.computeIfAbsent(dentry.ino(), ino -> new ArrayList<>()).add(dentry);
                if (inode.isDirectory()) {
                    subdirectories++;
                    directories.push(inode.ino());
                }
            }
            assertEquals(2 + subdirectories, inodes.get(dir).nlink(), "nlink of directory " + dir);
        }

        Inode root = inodes.get(Inode.ROOT);
        assertEquals(Inode.ROOT, root.parent(), "root's parent");
        assertEquals("", root.name(), "root's name");
        assertTrue(!names.containsKey(Inode.ROOT), "the root has no name in any directory");
        long usedBytes = 0;
        for (Inode inode : inodes.values()) {
            if (inode.isFile()) {
                usedBytes += inode.size();
            }
            if (inode.ino() == Inode.ROOT) {
                continue;
            }
            List<Dentry> links = names.get(inode.ino());
            if (inode.isDirectory()) {
                assertEquals(1, links.size(), "names of directory " + inode.ino());
            } else {
                assertEquals(links.size(), inode.nlink(), "nlink of " + inode.ino() + " named " + links);
            }
            assertTrue(links.stream().anyMatch(d -> d.parent() == inode.parent() && d.name().equals(inode.name())),
                    "primary link of " + inode + " is one of its names " + links);
        }
        assertEquals(new VolumeStats(inodes.size(), usedBytes), store.stats(), "counters");
    }

    /** Every entry of a directory, paging by {@link #PAGE}; each name must come exactly once. */
    static List<Dentry> readAll(MetaStore store, long dir) throws IOException {
        List<Dentry> all = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String after = null;
        while (true) {
            List<Dentry> page = store.readdir(dir, after, PAGE);
            for (Dentry dentry : page) {
                assertEquals(dir, dentry.parent(), "parent of " + dentry);
                assertTrue(seen.add(dentry.name()), "readdir of " + dir + " returned " + dentry.name() + " twice");
                all.add(dentry);
            }
            if (page.size() < PAGE) {
                return all;
            }
            after = page.get(page.size() - 1).name();
        }
    }
}
