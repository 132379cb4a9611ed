package io.strata.meta.dump;

import io.strata.meta.MetaStoreUrls;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.dump.DumpVisitor.Header;
import io.strata.meta.dump.DumpedInode.Xattr;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import io.strata.meta.dump.MetadataDump.LoadSummary;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Makes up a realistic tree of about N inodes, for benchmarks: directories of about
 * {@value #FANOUT} entries, as deep as that needs (three levels below the root for a million),
 * a few files beside the subdirectories of every inner directory, 1 % of files with a second
 * name in another directory, 1 % symlinks, xattrs on about 2 % of files, UFS versions on half of
 * them. The same N and seed give the same tree.
 *
 * <p>It writes through the load path ({@link MetadataDump#generate}): the fastest way into any
 * engine, and the same batched writes a load makes. Run it as
 * {@code java -cp strata.jar io.strata.meta.dump.TreeGenerator META_URL N [SEED]}.
 */
final class TreeGenerator {
    static final int FANOUT = 100;
    /** Files in every directory that also has subdirectories. */
    private static final int INNER_FILES = 5;
    private static final long BASE_NS = 1_700_000_000_000_000_000L;
    private static final int UID = 1000;
    private static final int GID = 1000;

    private final long inodes;
    private final long seed;

    // the walk's state
    private SplittableRandom random;
    private DumpVisitor visitor;
    private long nextIno;
    private final Deque<DumpedInode> toLink = new ArrayDeque<>();
    private long usedBytes;
    private long generated;

    TreeGenerator(long inodes, long seed) {
        if (inodes < 1) {
            throw new IllegalArgumentException("inodes must be at least 1 (the root): " + inodes);
        }
        this.inodes = inodes;
        this.seed = seed;
    }

    /** Hands the whole tree to {@code target}: a first pass counts it, so the header's counters are exact. */
    void generate(DumpVisitor target) throws IOException {
        Counting counting = new Counting();
        walk(counting, new DumpCounters(0, 0, 0));
        walk(target, new DumpCounters(nextIno, generated, usedBytes));
    }

    private void walk(DumpVisitor to, DumpCounters counters) throws IOException {
        random = new SplittableRandom(seed);
        visitor = to;
        nextIno = Inode.ROOT + 1;
        toLink.clear();
        usedBytes = 0;
        generated = 1;
        visitor.header(new Header(DumpFormat.VERSION, Map.of("ufs_uri", "file:///generated"), List.of(), counters));
        Inode root = new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, BASE_NS, BASE_NS, BASE_NS,
                2 + subdirectories(inodes - 1), 0, 0, Inode.ROOT, "", null, BASE_NS);
        visitor.directory(null, new DumpedInode(root, null, List.of()), true);
        fill(Inode.ROOT, inodes - 1, true);
        // second names still owed: at the end of the root, after its subdirectories ("d...")
        List<Entry> rest = new ArrayList<>();
        while (!toLink.isEmpty()) {
            DumpedInode original = toLink.poll();
            rest.add(new Entry(String.format("z-link-%012d", original.ino()), null, original));
        }
        emit(Inode.ROOT, rest);
        visitor.endDirectory();
        visitor.end();
    }

    /** Puts {@code budget} inodes below directory {@code dir}, whose attributes are already out. */
    private void fill(long dir, long budget, boolean root) throws IOException {
        int subdirs = subdirectories(budget);
        if (subdirs == 0) {
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < budget; i++) {
                entries.add(newEntry(dir, i));
            }
            // each leaf takes up to two second names of files made before it
            for (int i = 0; i < 2 && !toLink.isEmpty(); i++) {
                DumpedInode original = toLink.poll();
                entries.add(new Entry(String.format("h%012d.dat", original.ino()), null, original));
            }
            emit(dir, entries);
            return;
        }
        long files = Math.min(INNER_FILES, budget - subdirs);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            entries.add(newEntry(dir, i));
        }
        emit(dir, entries); // "a..." names: before the subdirectories "d..."
        long left = budget - files - subdirs;
        for (int i = 0; i < subdirs; i++) {
            long below = left / subdirs + (i < left % subdirs ? 1 : 0);
            String name = String.format("d%03d", i);
            long ino = nextIno++;
            generated++;
            Inode inode = new Inode(ino, InodeType.DIRECTORY, 0755, UID, GID, time(ino), time(ino), time(ino),
                    2 + subdirectories(below), 0, 0, dir, name, null, random.nextInt(4) == 0 ? Inode.NEVER_SYNCED
                    : time(ino));
            visitor.directory(name, new DumpedInode(inode, null, List.of()), true);
            fill(ino, below, false);
            visitor.endDirectory();
        }
    }

    /** How many subdirectories a directory with {@code budget} inodes below it gets: none for a leaf. */
    private static int subdirectories(long budget) {
        if (budget <= FANOUT) {
            return 0;
        }
        return (int) Math.min(FANOUT, (budget + FANOUT) / (FANOUT + 1));
    }

    private Entry newEntry(long dir, int index) {
        long ino = nextIno++;
        generated++;
        int roll = random.nextInt(100);
        if (roll == 0) {
            String target = String.format("../d%03d/f%03d.dat", random.nextInt(FANOUT), random.nextInt(FANOUT));
            long size = target.getBytes(StandardCharsets.UTF_8).length;
            Inode inode = new Inode(ino, InodeType.SYMLINK, 0777, UID, GID, time(ino), time(ino), time(ino), 1, size, 0,
                    dir, "", null, Inode.NEVER_SYNCED);
            return new Entry(String.format("a%03d.lnk", index), target, new DumpedInode(inode, target, List.of()));
        }
        boolean linked = roll == 1;
        long size = random.nextInt(8) == 0 ? 0 : random.nextLong(1L << random.nextInt(4, 26));
        usedBytes += size;
        String ufsVersion = random.nextBoolean() ? '"' + HexFormat.of().formatHex(bytes(16)) + '"' : null;
        List<Xattr> xattrs = List.of();
        int x = random.nextInt(100);
        if (x < 2) {
            xattrs = List.of(new Xattr("user.checksum", bytes(16)));
        } else if (x == 2) {
            xattrs = List.of(new Xattr("user.mime_type", "application/octet-stream".getBytes(StandardCharsets.UTF_8)),
                    new Xattr("user.origin", new byte[0]));
        }
        Inode inode = new Inode(ino, InodeType.FILE, 0644, UID, GID, time(ino), time(ino), time(ino), linked ? 2 : 1,
                size, 0, dir, "", ufsVersion, Inode.NEVER_SYNCED);
        return new Entry(String.format("a%03d.dat", index), null, new DumpedInode(inode, null, xattrs));
    }

    /** Hands a directory's entries over in name order, each with its primary link where it stands. */
    private void emit(long dir, List<Entry> entries) throws IOException {
        entries.sort(Comparator.comparing(Entry::name));
        for (Entry entry : entries) {
            Inode i = entry.node().inode();
            boolean first = i.name().isEmpty(); // made for this name; second names point at an earlier one
            Inode placed = new Inode(i.ino(), i.type(), i.mode(), i.uid(), i.gid(), i.atimeNs(), i.mtimeNs(),
                    i.ctimeNs(), i.nlink(), i.size(), i.rdev(), dir, entry.name(), i.ufsVersion(), i.syncedNs());
            DumpedInode node = new DumpedInode(placed, entry.node().symlinkTarget(), entry.node().xattrs());
            visitor.entry(entry.name(), node, first);
            if (first && i.nlink() > 1) {
                toLink.add(node); // its second name goes into a later leaf
            }
        }
    }

    private byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    private static long time(long ino) {
        return BASE_NS + ino * 1_000_003L;
    }

    private record Entry(String name, String target, DumpedInode node) {}

    /** The first pass: only counts. */
    private static final class Counting implements DumpVisitor {
        @Override
        public void header(Header header) {}

        @Override
        public void directory(String name, DumpedInode dir, boolean primary) {}

        @Override
        public void entry(String name, DumpedInode node, boolean primary) {}

        @Override
        public void endDirectory() {}

        @Override
        public void end() {}
    }

    /** {@code TreeGenerator META_URL N [SEED]}: fills an empty volume with a tree of about N inodes. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: TreeGenerator META_URL INODES [SEED]");
            System.exit(2);
        }
        long n = Long.parseLong(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        PrintWriter err = new PrintWriter(System.err, true);
        long start = System.nanoTime();
        try (MetaStore store = MetaStores.open(args[0])) {
            LoadSummary summary = MetadataDump.generate(store, n, seed, LoadOptions.defaults(),
                    Progress.lines(err, System::nanoTime, 5_000_000_000L));
            err.printf("generated %,d inodes (%,d entries) in %s in %.1f s%n", summary.inodes(), summary.entries(),
                    MetaStoreUrls.redact(args[0]), (System.nanoTime() - start) / 1e9);
        }
    }
}
