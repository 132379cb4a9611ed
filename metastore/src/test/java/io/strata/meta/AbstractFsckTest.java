package io.strata.meta;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.fsck.Fsck;
import io.strata.meta.fsck.FsckReport;
import io.strata.meta.fsck.Problem;
import io.strata.meta.fsck.ProblemKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The conformance suite of {@code strata fsck} ({@link Fsck}) on every engine: each test damages
 * a real store on purpose, the way only something outside Strata could, and checks that a dry
 * run reports exactly that problem, that a repair repairs it, that a check after is clean and,
 * where the damage was to data an operation relies on, that the operation works again.
 *
 * <p>No public call of a {@link MetaStore} can damage it, so each engine's subclass supplies a
 * {@link Damage} that writes its storage directly (SQL, Redis commands, the memory engine's
 * fields). It lives next to {@link AbstractMetaStoreTest} so that after each test the namespace
 * invariants ({@link NamespaceInvariants}) are checked by a walk that is not fsck's own.
 */
public abstract class AbstractFsckTest {
    /** An inode number no engine hands out in these tests. */
    private static final long MISSING = 999_999;

    protected MetaStore store;
    private Damage damage;
    /** The tree every test starts from: /d (directory), /d/f (10 bytes, also named /hard), /d/g (empty). */
    private long dir;
    private long file;
    private long other;

    /** A new, empty volume. */
    protected abstract MetaStore createStore() throws IOException;

    /** Damage to {@code store}, one that {@link #createStore()} returned, written to its storage directly. */
    protected abstract Damage damage(MetaStore store);

    /** Whether the engine keeps an inode counter apart from its inodes (the memory engine counts its map). */
    protected boolean keepsInodeCounter() {
        return true;
    }

    /**
     * Writes an engine's storage behind its back, one kind of damage per method. Each touches only
     * what it names: no counter, time or link moves with it.
     */
    public interface Damage {
        void setNlink(long ino, int nlink) throws Exception;

        /**
         * Loses the index of a non-directory's names that the engine keeps apart from the entries
         * (unlink reads it to move the primary link), where it keeps one.
         */
        void forgetNames(long ino) throws Exception;

        void setPrimaryLink(long ino, long parent, String name) throws Exception;

        /** Adds the entry {@code name} to {@code parent}, naming {@code ino} (which may not exist). */
        void addEntry(long parent, String name, long ino, InodeType type) throws Exception;

        /** Removes the entry {@code name} of {@code parent}, leaving its inode as it is. */
        void removeEntry(long parent, String name) throws Exception;

        /** Sets the volume's used-bytes counter as stats() reads it. */
        void setUsedBytes(long usedBytes) throws Exception;

        /** Sets the volume's inode counter as stats() reads it; only where {@link #keepsInodeCounter()}. */
        void setInodeCount(long inodes) throws Exception;
    }

    @BeforeEach
    protected final void makeTree() throws IOException {
        store = createStore();
        damage = damage(store);
        dir = store.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1)).ino();
        file = store.create(dir, "f", NewInode.file(0644, 0, 0, 2)).ino();
        store.setAttr(file, SetAttr.content(10, 5, "v1"));
        store.link(file, Inode.ROOT, "hard", 3);
        other = store.create(dir, "g", NewInode.file(0644, 0, 0, 4)).ino();
    }

    @AfterEach
    protected final void checkInvariantsAndClose() throws IOException {
        try {
            NamespaceInvariants.check(store);
        } finally {
            store.close();
        }
    }

    @Test
    public void healthyStoreIsClean() throws IOException {
        FsckReport report = Fsck.check(store, null, false);
        assertTrue(report.clean(), report::toString);
        assertEquals(List.of(), report.problems());
        assertEquals(4, report.inodes());
        assertEquals(4, report.entries());
        assertEquals(0, report.orphans());
        assertEquals(-1, report.ufsFiles());
    }

    @Test
    public void wrongFileNlinkIsRepairedWithTheNamesUnlinkMovesThePrimaryLinkTo() throws Exception {
        damage.setNlink(file, 9);
        damage.forgetNames(file);
        findThenRepair(new Found(ProblemKind.WRONG_NLINK, file));
        assertEquals(2, store.getInode(file).nlink());
        store.unlink(dir, "f", 10); // the primary link moves to the other name
        Inode left = store.getInode(file);
        assertEquals(new Inode(file, InodeType.FILE, 0644, 0, 0, left.atimeNs(), left.mtimeNs(), left.ctimeNs(), 1, 10,
                0, Inode.ROOT, "hard", "v1", Inode.NEVER_SYNCED), left);
    }

    @Test
    public void wrongDirectoryNlinkIsRepairedAndCountsOnFromThere() throws Exception {
        damage.setNlink(dir, 5);
        findThenRepair(new Found(ProblemKind.WRONG_NLINK, dir));
        assertEquals(2, store.getInode(dir).nlink());
        store.create(dir, "sub", NewInode.directory(0755, 0, 0, 10));
        assertEquals(3, store.getInode(dir).nlink());
    }

    @Test
    public void primaryLinkToNoneOfAFilesNamesIsRepaired() throws Exception {
        damage.setPrimaryLink(other, dir, "nowhere");
        findThenRepair(new Found(ProblemKind.BAD_PRIMARY_LINK, other));
        assertEquals(dir, store.getInode(other).parent());
        assertEquals("g", store.getInode(other).name());
    }

    @Test
    public void primaryLinkOfAHardLinkedFileIsRepairedToItsSmallestName() throws Exception {
        damage.setPrimaryLink(file, dir, "nowhere");
        findThenRepair(new Found(ProblemKind.BAD_PRIMARY_LINK, file));
        assertEquals(Inode.ROOT, store.getInode(file).parent(), "(1, hard) comes before (d, f)");
        assertEquals("hard", store.getInode(file).name());
    }

    @Test
    public void primaryLinkOfADirectoryElsewhereIsRepairedToItsName() throws Exception {
        damage.setPrimaryLink(dir, Inode.ROOT, "nowhere");
        findThenRepair(new Found(ProblemKind.BAD_PRIMARY_LINK, dir));
        assertEquals(Inode.ROOT, store.getInode(dir).parent());
        assertEquals("d", store.getInode(dir).name());
    }

    @Test
    public void entryWithoutInodeIsRemoved() throws Exception {
        damage.addEntry(dir, "ghost", MISSING, InodeType.FILE);
        findThenRepair(new Found(ProblemKind.DANGLING_ENTRY, MISSING));
        assertTrue(store.lookup(dir, "ghost").isEmpty());
        store.create(dir, "ghost", NewInode.file(0644, 0, 0, 10)); // the name is free again
    }

    @Test
    public void inodeWithoutNameIsRemovedWithItsBytes() throws Exception {
        store.setAttr(other, SetAttr.content(4, 5, "v2"));
        damage.removeEntry(dir, "g");
        FsckReport report = findThenRepair(new Found(ProblemKind.ORPHAN_INODE, other));
        assertEquals(1, report.orphans());
        assertEquals(10, store.stats().usedBytes(), "the orphan's bytes are out of the counter");
        assertEquals(3, store.stats().inodes(), "root, d and f remain");
        assertFsError(FsError.ENOENT, other);
    }

    @Test
    public void wrongUsedBytesCounterIsRepairedAndCountsOnFromThere() throws Exception {
        damage.setUsedBytes(12345);
        findThenRepair(new Found(ProblemKind.WRONG_USED_BYTES, 0));
        assertEquals(10, store.stats().usedBytes());
        store.setAttr(other, SetAttr.content(4, 5, "v2"));
        assertEquals(14, store.stats().usedBytes());
    }

    @Test
    public void wrongInodeCounterIsRepairedAndCountsOnFromThere() throws Exception {
        assumeTrue(keepsInodeCounter(), "the engine counts its inodes, it keeps no counter");
        damage.setInodeCount(11);
        findThenRepair(new Found(ProblemKind.WRONG_INODE_COUNT, 0));
        assertEquals(4, store.stats().inodes());
        store.create(Inode.ROOT, "new", NewInode.file(0644, 0, 0, 10));
        assertEquals(5, store.stats().inodes());
    }

    @Test
    public void directoryWithASecondNameIsReportedAndNotRepaired() throws Exception {
        damage.addEntry(Inode.ROOT, "again", dir, InodeType.DIRECTORY);
        FsckReport report = Fsck.check(store, null, true);
        assertEquals(List.of(new Found(ProblemKind.DIRECTORY_LINKED_TWICE, dir)), found(report), report::toString);
        assertEquals(1, report.remaining(), report::toString);
        assertEquals(0, report.repaired(), report::toString);
        FsckReport again = Fsck.check(store, null, false);
        assertEquals(found(report), found(again), "the repair changed nothing");
        damage.removeEntry(Inode.ROOT, "again"); // for the invariants after the test
        assertTrue(Fsck.check(store, null, false).clean());
    }

    @Test
    public void damageOfSeveralKindsIsReportedInWalkOrderAndRepairedInOneRun() throws Exception {
        damage.setNlink(file, 9);
        damage.addEntry(dir, "ghost", MISSING, InodeType.FILE);
        damage.removeEntry(dir, "g");
        damage.setUsedBytes(15);
        findThenRepair(new Found(ProblemKind.DANGLING_ENTRY, MISSING), new Found(ProblemKind.WRONG_NLINK, file),
                new Found(ProblemKind.ORPHAN_INODE, other), new Found(ProblemKind.WRONG_USED_BYTES, 0));
        assertEquals(3, store.stats().inodes(), "root, d and f remain");
        assertEquals(10, store.stats().usedBytes());
        assertFsError(FsError.ENOENT, other);
    }

    /** What a problem is about, as the tests compare it. */
    private record Found(ProblemKind kind, long ino) {}

    private static List<Found> found(FsckReport report) {
        return report.problems().stream().map(p -> new Found(p.kind(), p.ino())).toList();
    }

    /**
     * A dry run reports exactly {@code expected}, in order, and changes nothing; a repair finds the
     * same and repairs every one; a check after it is clean. Returns the dry run's report.
     */
    private FsckReport findThenRepair(Found... expected) throws IOException {
        FsckReport dryRun = Fsck.check(store, null, false);
        assertEquals(List.of(expected), found(dryRun), dryRun::toString);
        assertEquals(expected.length, dryRun.repairable(), dryRun::toString);
        assertEquals(0, dryRun.repaired(), dryRun::toString);
        FsckReport repaired = Fsck.check(store, null, true);
        assertEquals(List.of(expected), found(repaired), "a dry run changes nothing: " + repaired);
        assertTrue(repaired.problems().stream().allMatch(Problem::repaired), repaired::toString);
        FsckReport again = Fsck.check(store, null, false);
        assertTrue(again.clean(), again::toString);
        assertEquals(List.of(), again.problems());
        return dryRun;
    }

    private void assertFsError(FsError expected, long ino) {
        FsException failure = assertThrows(FsException.class, () -> store.getInode(ino));
        assertEquals(expected, failure.error());
    }
}
