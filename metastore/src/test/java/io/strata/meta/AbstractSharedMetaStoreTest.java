package io.strata.meta;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance suite plus what an engine for volumes that many clients share must do: a
 * store opened again sees the same volume, and two stores on one volume (as two processes would
 * have) see each other's changes and stay consistent under concurrent changes.
 *
 * <p>{@link #createStore()} must open the <em>same</em> volume each time it is called within one
 * test.
 */
public abstract class AbstractSharedMetaStoreTest extends AbstractMetaStoreTest {
    private static final int THREADS_PER_STORE = 4;

    @Test
    public void dataSurvivesCloseAndReopen() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        Inode file = file(dir.ino(), "f", 123);
        store.link(file.ino(), Inode.ROOT, "g", tick());
        store.create(Inode.ROOT, "l", NewInode.symlink("d/f", 0, 0, tick()));
        store.setXattr(file.ino(), "user.k", new byte[] {1, 2}, XattrMode.UPSERT);
        store.putSetting("ufs_uri", "file:///data");
        Inode fileBefore = store.getInode(file.ino());
        Inode rootBefore = store.getInode(Inode.ROOT);
        store.close();

        store = createStore();
        assertEquals(fileBefore, store.getInode(file.ino()));
        assertEquals(rootBefore, store.getInode(Inode.ROOT));
        assertEquals(dir.ino(), store.lookup(Inode.ROOT, "d").orElseThrow().ino());
        assertEquals(file.ino(), store.lookup(dir.ino(), "f").orElseThrow().ino());
        assertEquals("d/f", store.readlink(store.lookup(Inode.ROOT, "l").orElseThrow().ino()));
        assertArrayEquals(new byte[] {1, 2}, store.getXattr(file.ino(), "user.k").orElseThrow());
        assertEquals(Optional.of("file:///data"), store.getSetting("ufs_uri"));
        assertEquals(new VolumeStats(4, 123), store.stats());
        assertTrue(store.create(Inode.ROOT, "new", NewInode.file(0644, 0, 0, tick())).ino() > 4,
                "inode numbers continue after reopen");
    }

    @Test
    public void twoStoresOnOneVolumeSeeEachOthersChanges() throws IOException {
        try (MetaStore other = createStore()) {
            long dir = mkdir(Inode.ROOT, "d").ino();
            Inode file = other.create(dir, "f", NewInode.file(0644, 0, 0, tick()));
            assertEquals(Optional.of(new Dentry(dir, "f", file.ino(), InodeType.FILE)), store.lookup(dir, "f"));
            store.setAttr(file.ino(), SetAttr.content(77, tick(), "v2"));
            assertEquals(77, other.getInode(file.ino()).size());
            other.rename(dir, "f", Inode.ROOT, "g", tick());
            assertEquals(List.of("d", "g"), store.readdir(Inode.ROOT, null, 10).stream().map(Dentry::name).toList());
            assertEquals(new VolumeStats(3, 77), store.stats());
            assertEquals(store.stats(), other.stats());
        }
    }

    @Test
    @Timeout(60)
    public void concurrentCreatesThroughTwoStoresHaveOneWinner() throws Exception {
        try (MetaStore other = createStore()) {
            Set<Long> inodes = new HashSet<>();
            for (int round = 0; round < 25; round++) {
                String name = "n" + round;
                List<Callable<Inode>> creates = new ArrayList<>();
                for (int i = 0; i < THREADS_PER_STORE; i++) {
                    for (MetaStore handle : List.of(store, other)) {
                        creates.add(() -> handle.create(Inode.ROOT, name, NewInode.file(0644, 0, 0, tick())));
                    }
                }
                int winners = 0;
                for (Future<Inode> result : runTogether(creates)) {
                    try {
                        assertTrue(inodes.add(result.get().ino()), "inode number given twice");
                        winners++;
                    } catch (ExecutionException e) {
                        FsException failure = assertInstanceOf(FsException.class, e.getCause());
                        assertEquals(FsError.EEXIST, failure.error(), failure.getMessage());
                    }
                }
                assertEquals(1, winners, "winners of " + name);
            }
        }
        assertEquals(new VolumeStats(26, 0), store.stats());
    }

    @Test
    @Timeout(60)
    public void crossedDirectoryMovesThroughTwoStoresNeverMakeACycle() throws Exception {
        try (MetaStore other = createStore()) {
            for (int round = 0; round < 20; round++) {
                String a = "a" + round;
                String b = "b" + round;
                long aIno = mkdir(Inode.ROOT, a).ino();
                long bIno = mkdir(Inode.ROOT, b).ino();
                List<Callable<Renamed>> moves = List.of(() -> store.rename(Inode.ROOT, a, bIno, a, tick()),
                        () -> other.rename(Inode.ROOT, b, aIno, b, tick()));
                int moved = 0;
                for (Future<Renamed> result : runTogether(moves)) {
                    try {
                        result.get();
                        moved++;
                    } catch (ExecutionException e) {
                        FsException failure = assertInstanceOf(FsException.class, e.getCause());
                        assertEquals(FsError.EINVAL, failure.error(), failure.getMessage());
                    }
                }
                assertEquals(1, moved, "moves of round " + round);
            }
        }
    }

    @Test
    @Timeout(60)
    public void concurrentChangesThroughTwoStoresKeepCountersExact() throws Exception {
        // creates, links, renames and unlinks in one directory from both stores; the invariants
        // checked after the test compare the counters with the tree
        long dir = mkdir(Inode.ROOT, "d").ino();
        try (MetaStore other = createStore()) {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < 2 * THREADS_PER_STORE; t++) {
                MetaStore handle = t % 2 == 0 ? store : other;
                String own = "t" + t + "-";
                tasks.add(() -> {
                    for (int i = 0; i < 25; i++) {
                        String name = own + (i % 5);
                        try {
                            Inode file = handle.create(dir, name, new NewInode(InodeType.FILE, 0644, 0, 0, 0, i, tick(),
                                    tick(), null, null));
                            handle.link(file.ino(), Inode.ROOT, own + "link" + i, tick());
                            handle.rename(dir, name, dir, "shared" + (i % 3), tick());
                            handle.unlink(Inode.ROOT, own + "link" + i, tick());
                        } catch (FsException e) {
                            assertTrue(Set.of(FsError.EEXIST, FsError.ENOENT).contains(e.error()), e.getMessage());
                        }
                    }
                    return null;
                });
            }
            for (Future<Void> result : runTogether(tasks)) {
                result.get();
            }
        }
    }
}
