package io.strata.meta.memory;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import io.strata.meta.fsck.Fsck;
import io.strata.meta.fsck.FsckReport;
import io.strata.meta.fsck.Problem;
import io.strata.meta.fsck.ProblemKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fsck on the memory engine, broken through its fields (no public call can break it). */
class MemoryFsckTest {
    private final MemoryMetaStore store = new MemoryMetaStore();
    private long dir;
    private long file;
    private long other;

    @BeforeEach
    void makeTree() throws IOException {
        dir = store.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1)).ino();
        file = store.create(dir, "f", NewInode.file(0644, 0, 0, 2)).ino();
        store.setAttr(file, SetAttr.content(10, 5, "v1"));
        store.link(file, Inode.ROOT, "hard", 3);
        other = store.create(dir, "g", NewInode.file(0644, 0, 0, 4)).ino();
    }

    private List<ProblemKind> kinds(FsckReport report) {
        return report.problems().stream().map(Problem::kind).toList();
    }

    /** Repairs, every problem is marked repaired, and a second check is clean. */
    private void repairThenClean() throws IOException {
        FsckReport repaired = Fsck.check(store, null, true);
        assertTrue(repaired.problems().stream().allMatch(Problem::repaired), repaired::toString);
        FsckReport again = Fsck.check(store, null, false);
        assertTrue(again.clean(), again::toString);
    }

    @Test
    void healthyStoreIsClean() throws IOException {
        FsckReport report = Fsck.check(store, null, false);
        assertTrue(report.clean(), report::toString);
        assertEquals(4, report.inodes());
        assertEquals(4, report.entries());
        assertEquals(-1, report.ufsFiles());
    }

    @Test
    void wrongNlinkIsFoundAndRepaired() throws IOException {
        store.nodes.get(file).nlink = 7;
        store.nodes.get(dir).nlink = 5;
        assertEquals(List.of(ProblemKind.WRONG_NLINK, ProblemKind.WRONG_NLINK), kinds(Fsck.check(store, null, false)));
        repairThenClean();
        assertEquals(2, store.getInode(file).nlink());
        assertEquals(2, store.getInode(dir).nlink());
    }

    @Test
    void primaryLinkToNoName() throws IOException {
        store.nodes.get(other).name = "nowhere";
        assertEquals(List.of(ProblemKind.BAD_PRIMARY_LINK), kinds(Fsck.check(store, null, false)));
        repairThenClean();
        assertEquals("g", store.getInode(other).name());
    }

    @Test
    void danglingEntryIsFoundAndRemoved() throws IOException {
        store.nodes.get(dir).children.put("ghost", new Dentry(dir, "ghost", 999, InodeType.FILE));
        assertEquals(List.of(ProblemKind.DANGLING_ENTRY), kinds(Fsck.check(store, null, false)));
        repairThenClean();
        assertTrue(store.lookup(dir, "ghost").isEmpty());
    }

    @Test
    void orphanIsFoundAndRemovedWithItsBytes() throws IOException {
        store.setAttr(other, SetAttr.content(4, 5, "v2"));
        store.nodes.get(dir).children.remove("g");
        FsckReport report = Fsck.check(store, null, false);
        assertEquals(List.of(ProblemKind.ORPHAN_INODE), kinds(report));
        assertEquals(1, report.orphans());
        repairThenClean();
        assertEquals(10, store.stats().usedBytes(), "the orphan's bytes are out of the counter");
        assertEquals(3, store.stats().inodes(), "root, d and f remain");
    }

    @Test
    void usedBytesCounterIsFoundAndRepaired() throws IOException {
        store.usedBytes = 12345;
        assertEquals(List.of(ProblemKind.WRONG_USED_BYTES), kinds(Fsck.check(store, null, false)));
        repairThenClean();
        assertEquals(10, store.stats().usedBytes());
    }

    @Test
    void directoryWithTwoNamesIsReportedNotRepaired() throws IOException {
        store.nodes.get(Inode.ROOT).children.put("again", new Dentry(Inode.ROOT, "again", dir, InodeType.DIRECTORY));
        FsckReport report = Fsck.check(store, null, true);
        assertTrue(kinds(report).contains(ProblemKind.DIRECTORY_LINKED_TWICE), report::toString);
        assertEquals(1, report.remaining(), report::toString);
    }
}
