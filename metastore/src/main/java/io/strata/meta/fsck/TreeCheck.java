package io.strata.meta.fsck;

import io.strata.meta.Inode;
import io.strata.meta.Names;
import io.strata.meta.dump.DumpEntry;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.InodeBits;
import io.strata.meta.fsck.FsckTarget.Link;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Walks the namespace depth first from the root through a {@link DumpSource}, the engine-neutral
 * reader every engine has, and checks what a walk can see: entries without an inode, directories
 * reached twice, link counts, primary links, and (with a {@link UfsCheck}) each file's data.
 *
 * <p>Memory: one bit per inode reached, plus a small record for each inode that has more than one
 * name or whose nlink or primary link already looks wrong when it is first reached; a file with
 * nlink 1 reached at its primary link (nearly every file) costs its bit only. The walk holds one
 * page per directory level, as a dump does.
 */
final class TreeCheck {
    static final int PAGE_SIZE = 1000;
    /** Repair order: entries go before the inodes they named, nlinks before primary links. */
    static final int REMOVE_ENTRY = 0;
    static final int SET_LINKS = 2;
    static final int SET_PRIMARY = 3;
    private static final Comparator<Link> LINK_ORDER =
            Comparator.comparingLong(Link::parent).thenComparing(Link::name, Names.ORDER);

    private final DumpSource source;
    private final UfsCheck ufs;
    private final List<Finding> findings = new ArrayList<>();
    private final InodeBits reached = new InodeBits();
    /** Inodes with more than one name, or whose count or primary link needs a look at the end. */
    private final Map<Long, Tally> tallies = new HashMap<>();
    /**
     * Directories reached at a name that is not their primary link. Reported at the end, unless
     * the directory turns out to have a second name: then which name is right is not fsck's call.
     */
    private final Map<Long, Finding> directoryPrimaryLinks = new HashMap<>();
    private long inodes;
    private long usedBytes;
    private long entries;

    /** {@code ufs}: null to leave the under storage unchecked. */
    TreeCheck(DumpSource source, UfsCheck ufs) {
        this.source = requireNonNull(source, "source is null");
        this.ufs = ufs;
    }

    /** Walks the whole tree, then checks the inodes whose names it had to count. */
    void walk() throws IOException {
        DumpedInode root = source.root();
        Inode rootInode = root.inode();
        reach(rootInode);
        if (rootInode.parent() != Inode.ROOT || !rootInode.name().isEmpty()) {
            findings.add(Finding.repairable(ProblemKind.BAD_PRIMARY_LINK, Inode.ROOT, "/",
                    "the root's primary link is " + describe(rootInode) + ", not itself", "make it the root itself",
                    SET_PRIMARY, target -> target.setPrimaryLink(Inode.ROOT, new Link(Inode.ROOT, ""))));
        }
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(rootInode, "/", source.page(Inode.ROOT, null, PAGE_SIZE)));
        while (!stack.isEmpty()) {
            Frame top = stack.peek();
            if (top.index < top.page.size()) {
                Frame child = visit(top, top.page.get(top.index++));
                if (child != null) {
                    stack.push(child);
                }
            } else if (top.page.size() >= PAGE_SIZE) {
                String after = top.page.get(top.page.size() - 1).name();
                top.page = source.page(top.dir.ino(), after, PAGE_SIZE);
                top.index = 0;
            } else {
                endDirectory(top);
                stack.pop();
            }
        }
        tallies.values().forEach(this::checkNames);
        findings.addAll(directoryPrimaryLinks.values());
    }

    List<Finding> findings() {
        return findings;
    }

    boolean reached(long ino) {
        return reached.get(ino);
    }

    /** Inodes reached from the root, the root included. */
    long inodes() {
        return inodes;
    }

    /** The sum of the sizes of the files reached. */
    long usedBytes() {
        return usedBytes;
    }

    /** Names seen (a hard link counts at each name). */
    long entries() {
        return entries;
    }

    /** The frame of a subdirectory to descend into, or null. */
    private Frame visit(Frame frame, DumpEntry entry) throws IOException {
        entries++;
        String path = frame.child(entry.name());
        long dir = frame.dir.ino();
        if (entry.node() == null) {
            findings.add(Finding.repairable(ProblemKind.DANGLING_ENTRY, entry.ino(), path,
                    "the entry names inode " + entry.ino() + ", which does not exist", "remove the entry",
                    REMOVE_ENTRY, target -> target.removeEntry(dir, entry.name())));
            return null;
        }
        Inode inode = entry.node().inode();
        Link link = new Link(dir, entry.name());
        boolean primary = inode.parent() == dir && inode.name().equals(entry.name());
        if (inode.isDirectory()) {
            if (reached.get(inode.ino())) {
                directoryPrimaryLinks.remove(inode.ino());
                findings.add(Finding.unrepairable(ProblemKind.DIRECTORY_LINKED_TWICE, inode.ino(), path,
                        "directory " + inode.ino() + " is reached again here (a second name, or inside itself):"
                                + " a directory has one name; the walk did not descend here again. Restore the"
                                + " metastore from a dump, or remove this entry with the engine's own tools"));
                return null;
            }
            reach(inode);
            frame.subdirectories++;
            if (!primary) {
                directoryPrimaryLinks.put(inode.ino(), Finding.repairable(ProblemKind.BAD_PRIMARY_LINK, inode.ino(),
                        path, "the directory's primary link is " + describe(inode) + ", not its one name",
                        "make its name here its primary link", SET_PRIMARY,
                        target -> target.setPrimaryLink(inode.ino(), link)));
            }
            return new Frame(inode, path, source.page(inode.ino(), null, PAGE_SIZE));
        }
        Tally tally = tallies.get(inode.ino());
        if (!reached.get(inode.ino())) {
            reach(inode);
            if (inode.nlink() != 1 || !primary) {
                tally = new Tally(inode, path);
                tallies.put(inode.ino(), tally);
            }
        } else if (tally == null) {
            // reached before at its primary link, the one name it was thought to have
            tally = new Tally(inode, path);
            tally.names.add(new Link(inode.parent(), inode.name()));
            tallies.put(inode.ino(), tally);
        }
        if (tally != null) {
            tally.names.add(link);
        }
        if (primary && inode.isFile() && ufs != null) {
            ufs.check(inode, path).ifPresent(findings::add);
        }
        return null;
    }

    private void reach(Inode inode) {
        reached.set(inode.ino());
        inodes++;
        if (inode.isFile()) {
            usedBytes += inode.size();
        }
    }

    /** A directory's nlink: 2 (its name and its ".") plus one per subdirectory's "..". */
    private void endDirectory(Frame frame) {
        Inode dir = frame.dir;
        int expected = 2 + frame.subdirectories;
        if (dir.nlink() != expected) {
            findings.add(Finding.repairable(ProblemKind.WRONG_NLINK, dir.ino(), frame.path,
                    "the directory's nlink is " + dir.nlink() + ", but it has " + frame.subdirectories
                            + " subdirectories (nlink 2 + subdirectories = " + expected + ")",
                    "set nlink to " + expected, SET_LINKS, target -> target.setLinks(dir.ino(), expected, List.of())));
        }
    }

    /** A non-directory's nlink is its number of names, and its primary link one of them. */
    private void checkNames(Tally tally) {
        Inode inode = tally.inode;
        List<Link> names = List.copyOf(tally.names);
        if (inode.nlink() != names.size()) {
            findings.add(Finding.repairable(ProblemKind.WRONG_NLINK, inode.ino(), tally.path,
                    "nlink is " + inode.nlink() + ", but " + names.size() + " names link it",
                    "set nlink to " + names.size(), SET_LINKS,
                    target -> target.setLinks(inode.ino(), names.size(), names)));
        }
        if (!names.contains(new Link(inode.parent(), inode.name()))) {
            Link first = names.stream().min(LINK_ORDER).orElseThrow();
            findings.add(Finding.repairable(ProblemKind.BAD_PRIMARY_LINK, inode.ino(), tally.path,
                    "the primary link is " + describe(inode) + ", which is none of its names",
                    "make entry '" + first.name() + "' of directory " + first.parent() + " its primary link"
                            + (inode.isFile() ? " (its data is then expected at that path in the under storage)" : ""),
                    SET_PRIMARY, target -> target.setPrimaryLink(inode.ino(), first)));
        }
    }

    static String describe(Inode inode) {
        return "entry '" + inode.name() + "' of directory " + inode.parent();
    }

    /** One directory on the current path, and the page of it being checked. */
    private static final class Frame {
        final Inode dir;
        final String path;
        List<DumpEntry> page;
        int index;
        int subdirectories;

        Frame(Inode dir, String path, List<DumpEntry> page) {
            this.dir = dir;
            this.path = path;
            this.page = page;
        }

        String child(String name) {
            return path.equals("/") ? "/" + name : path + "/" + name;
        }
    }

    /** The names found so far of one inode that needs counting. */
    private static final class Tally {
        final Inode inode;
        /** The first name it was reached at, for the report. */
        final String path;
        final List<Link> names = new ArrayList<>(2);

        Tally(Inode inode, String path) {
            this.inode = inode;
            this.path = path;
        }
    }
}
