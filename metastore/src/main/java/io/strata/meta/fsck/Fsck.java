package io.strata.meta.fsck;

import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * {@code strata fsck}: checks a volume's namespace invariants, and repairs what can be repaired
 * without guessing. The invariants are in docs/SEMANTICS.md ("Metastore invariants").
 *
 * <p>A check is two passes. The first walks the tree from the root over the engine's
 * {@link DumpSource}, the same engine-neutral reader as a dump, on one consistent view where the
 * engine has one ({@link TreeCheck}; with an under storage, {@link UfsCheck} for each file). The
 * second scans every inode through the engine's {@link FsckTarget} for the ones the walk did not
 * reach, and compares the counters with the sums. Inodes numbered at or above the walk's
 * next-inode counter were created after it and are left out, so a check of a volume in use
 * reports no orphan that is only new; repairs are meant for a volume no client is changing.
 *
 * <p>First of all, the engine checks its own storage ({@link FsckTarget#storageDamage}: SQLite's
 * integrity check); a damaged one is only reported, or with repairs has its indexes rebuilt, before
 * the namespace is read through it.
 *
 * <p>Repairs, in order: entries without an inode are removed; orphan inodes are removed (their
 * metadata only: the under storage is left as it is); nlinks are set to what the names count;
 * primary links are set to one of the inode's names; the counters are set to the sums over what
 * remains. Directories with two names and differences from the under storage are only reported.
 */
public final class Fsck {
    static final int SCAN_PAGE = 1000;
    /** Orphans are removed after the entries that named nothing and before the links are set. */
    private static final int REMOVE_ORPHAN = 1;
    private static final int SET_COUNTERS = 4;

    private Fsck() {}

    /**
     * Checks {@code store}, and its files against {@code ufs} unless that is null; with
     * {@code repair}, repairs what it can and marks those problems repaired.
     *
     * @throws UnsupportedOperationException for an engine without a dump source or fsck target
     */
    public static FsckReport check(MetaStore store, UnderFileSystem ufs, boolean repair) throws IOException {
        requireNonNull(store, "store is null");
        List<Problem> storage = checkStorage(store, repair);
        if (!storage.isEmpty() && !repair) {
            return new FsckReport("not checked: the storage under it is damaged", 0, 0, 0, -1, storage);
        }
        UfsCheck ufsCheck = ufs == null ? null : new UfsCheck(ufs);
        TreeCheck tree;
        DumpCounters counters;
        String consistency;
        // the source is closed before any repair: an engine's snapshot may hold back its writes
        try (DumpSource source = store.dumpSource()) {
            consistency = source.consistency();
            counters = source.counters();
            tree = new TreeCheck(source, ufsCheck);
            tree.walk();
        }
        List<Finding> findings = new ArrayList<>(tree.findings());
        try (FsckTarget target = store.fsckTarget()) {
            long orphans = 0;
            long orphanBytes = 0;
            for (long after = 0; ; ) {
                List<Inode> page = target.inodes(after, SCAN_PAGE);
                for (Inode inode : page) {
                    if (inode.ino() >= counters.nextInode() || tree.reached(inode.ino())) {
                        continue;
                    }
                    orphans++;
                    orphanBytes += inode.isFile() ? inode.size() : 0;
                    findings.add(orphan(inode));
                }
                if (page.size() < SCAN_PAGE) {
                    break;
                }
                after = page.get(page.size() - 1).ino();
            }
            long inodes = tree.inodes() + orphans;
            long usedBytes = tree.usedBytes() + orphanBytes;
            // after the repairs the orphans are gone: the counters are set to what was reached
            Finding.Repair setCounters = t -> t.setCounters(tree.inodes(), tree.usedBytes());
            String counterRepair = "set the counters to what remains after the repairs (" + tree.inodes()
                    + " inodes, " + tree.usedBytes() + " bytes)";
            if (counters.inodes() != inodes) {
                findings.add(Finding.repairable(ProblemKind.WRONG_INODE_COUNT, 0, "(volume)",
                        "the inode counter says " + counters.inodes() + ", the volume holds " + inodes + " inodes",
                        counterRepair, SET_COUNTERS, setCounters));
            }
            if (counters.usedBytes() != usedBytes) {
                findings.add(Finding.repairable(ProblemKind.WRONG_USED_BYTES, 0, "(volume)",
                        "the used-bytes counter says " + counters.usedBytes() + ", the files hold " + usedBytes,
                        counterRepair, SET_COUNTERS, setCounters));
            }
            List<Problem> problems = new ArrayList<>(storage);
            if (repair) {
                List<Finding> ordered = findings.stream().filter(f -> f.repair() != null)
                        .sorted(Comparator.comparingInt(Finding::order)).toList();
                boolean countersSet = false;
                for (Finding finding : ordered) {
                    if (finding.order() == SET_COUNTERS) {
                        if (countersSet) {
                            continue; // one call sets both counters
                        }
                        countersSet = true;
                    }
                    finding.repair().apply(target);
                }
                if (!countersSet && orphans > 0) {
                    setCounters.apply(target); // the orphans removed were counted
                }
            }
            for (Finding finding : findings) {
                problems.add(repair && finding.repair() != null ? finding.problem().markRepaired() : finding.problem());
            }
            return new FsckReport(consistency, tree.inodes(), tree.entries(), orphans,
                    ufsCheck == null ? -1 : ufsCheck.checked(), problems);
        }
    }

    /**
     * The engine's own check of its storage, before anything reads the namespace through it: a
     * damaged index answers lookups wrongly, so a walk would report what the index lost as the
     * namespace's problems, or fail. With {@code repair} the indexes are rebuilt from their rows;
     * damage that outlives that is beyond fsck, and the check fails saying what to do.
     */
    private static List<Problem> checkStorage(MetaStore store, boolean repair) throws IOException {
        try (FsckTarget target = store.fsckTarget()) {
            List<String> damage = target.storageDamage();
            if (damage.isEmpty()) {
                return List.of();
            }
            List<Problem> problems = damage.stream().map(line -> new Problem(ProblemKind.STORAGE_DAMAGED, 0,
                    "(storage)", line, "rebuild the indexes from their rows", false)).toList();
            if (!repair) {
                return problems;
            }
            target.rebuildIndexes();
            List<String> left = target.storageDamage();
            if (!left.isEmpty()) {
                throw new IOException("the metastore's storage is damaged beyond its indexes (" + left.get(0)
                        + (left.size() > 1 ? ", and " + (left.size() - 1) + " more" : "") + "): restore the volume"
                        + " from a dump ('strata load'), or move the metastore away so that the next mount lists"
                        + " the under storage again");
            }
            return problems.stream().map(Problem::markRepaired).toList();
        }
    }

    private static Finding orphan(Inode inode) {
        String what = inode.type().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + (inode.isFile() ? " of " + inode.size() + " bytes" : "");
        return Finding.repairable(ProblemKind.ORPHAN_INODE, inode.ino(),
                "(unreachable; primary link: " + TreeCheck.describe(inode) + ")",
                "inode " + inode.ino() + " (" + what + ", nlink " + inode.nlink() + ") has no name that leads to it"
                        + " from the root",
                "remove the inode (attributes and xattrs" + (inode.isDirectory() ? ", entries" : "")
                        + "); the under storage is left as it is",
                REMOVE_ORPHAN, target -> target.removeInode(inode.ino()));
    }
}
