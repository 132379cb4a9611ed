package io.strata.meta;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.MetaStore.ListedEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance suite of {@link MetaStore}: every engine's test is a subclass that only says
 * how to open a fresh, empty store. Each test checks one behaviour; after each, the namespace
 * invariants ({@link NamespaceInvariants}) must hold.
 *
 * <p>Shipped in this module's test jar so engines in other modules run it too.
 */
public abstract class AbstractMetaStoreTest {
    private static final long START_NS = 1_700_000_000_000_000_000L;
    private static final int UID = 1000;
    private static final int GID = 100;

    protected MetaStore store;
    private final AtomicLong clock = new AtomicLong(START_NS); // the concurrency tests tick from many threads

    /** A new, empty volume. Called once before each test; may be called again to open more handles. */
    protected abstract MetaStore createStore() throws IOException;

    @BeforeEach
    protected final void openStore() throws IOException {
        store = createStore();
    }

    @AfterEach
    protected final void checkInvariantsAndClose() throws IOException {
        try {
            NamespaceInvariants.check(store);
        } finally {
            store.close();
        }
    }

    // --- root and inodes

    @Test
    public void rootExistsOnOpen() throws IOException {
        Inode root = store.getInode(Inode.ROOT);
        assertEquals(InodeType.DIRECTORY, root.type());
        assertEquals(0755, root.mode());
        assertEquals(0, root.uid());
        assertEquals(0, root.gid());
        assertEquals(2, root.nlink());
        assertEquals(Inode.ROOT, root.parent());
        assertEquals("", root.name());
        assertEquals(Inode.NEVER_SYNCED, root.syncedNs());
        assertTrue(store.readdir(Inode.ROOT, null, 10).isEmpty());
    }

    @Test
    public void getInodeOfMissingInodeFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.getInode(12345));
    }

    @Test
    public void createFileSetsAttributesFromSpec() throws IOException {
        NewInode spec = new NewInode(InodeType.FILE, 0640, UID, GID, 0, 42, tick(), 7, null, "etag-1");
        Inode file = store.create(Inode.ROOT, "f", spec);
        assertEquals(InodeType.FILE, file.type());
        assertEquals(0640, file.mode());
        assertEquals(UID, file.uid());
        assertEquals(GID, file.gid());
        assertEquals(1, file.nlink());
        assertEquals(42, file.size());
        assertEquals(spec.timeNs(), file.atimeNs());
        assertEquals(7, file.mtimeNs());
        assertEquals(spec.timeNs(), file.ctimeNs());
        assertEquals(Inode.ROOT, file.parent());
        assertEquals("f", file.name());
        assertEquals("etag-1", file.ufsVersion());
        assertEquals(file, store.getInode(file.ino()));
    }

    @Test
    public void createAllocatesInodeNumbersFromTwoUpwards() throws IOException {
        long first = file(Inode.ROOT, "a").ino();
        long second = mkdir(Inode.ROOT, "b").ino();
        assertEquals(2, first);
        assertTrue(second > first, "second inode number " + second + " after " + first);
    }

    @Test
    public void inodeNumbersAreNotReusedAfterDelete() throws IOException {
        long first = file(Inode.ROOT, "a").ino();
        store.unlink(Inode.ROOT, "a", tick());
        assertNotEquals(first, file(Inode.ROOT, "a").ino());
    }

    @Test
    public void createDirectoryStartsWithNlinkTwoAndGrowsParentNlink() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        assertEquals(2, dir.nlink());
        assertEquals(3, store.getInode(Inode.ROOT).nlink());
        mkdir(dir.ino(), "sub");
        assertEquals(3, store.getInode(dir.ino()).nlink());
        file(dir.ino(), "file");
        assertEquals(3, store.getInode(dir.ino()).nlink(), "a file does not count in its parent's nlink");
    }

    @Test
    public void createdDirectoryIsSyncedAtCreationTime() throws IOException {
        NewInode spec = NewInode.directory(0755, UID, GID, tick());
        assertEquals(spec.timeNs(), store.create(Inode.ROOT, "d", spec).syncedNs());
    }

    @Test
    public void createSetsParentMtimeAndCtime() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        long now = tick();
        store.create(dir.ino(), "f", NewInode.file(0644, UID, GID, now));
        Inode parent = store.getInode(dir.ino());
        assertEquals(now, parent.mtimeNs());
        assertEquals(now, parent.ctimeNs());
    }

    @Test
    public void createOfTakenNameFailsWithEexist() throws IOException {
        file(Inode.ROOT, "x");
        assertFsError(FsError.EEXIST, () -> mkdir(Inode.ROOT, "x"));
        assertEquals(new VolumeStats(2, 0), store.stats());
    }

    @Test
    public void createInMissingDirectoryFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> file(999, "x"));
    }

    @Test
    public void createUnderFileFailsWithEnotdir() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENOTDIR, () -> file(file, "x"));
    }

    @Test
    public void createKeepsRdevOfDevice() throws IOException {
        NewInode spec = new NewInode(InodeType.CHAR_DEVICE, 0600, 0, 0, 0x0501, 0, tick(), tick(), null, null);
        Inode device = store.create(Inode.ROOT, "tty", spec);
        assertEquals(0x0501, store.getInode(device.ino()).rdev());
        assertEquals(InodeType.CHAR_DEVICE, store.lookup(Inode.ROOT, "tty").orElseThrow().type());
    }

    @Test
    public void symlinkTargetIsReadBack() throws IOException {
        Inode link = store.create(Inode.ROOT, "l", NewInode.symlink("../some/where", UID, GID, tick()));
        assertEquals(InodeType.SYMLINK, link.type());
        assertEquals("../some/where", store.readlink(link.ino()));
    }

    @Test
    public void readlinkOfNonSymlinkFailsWithEinval() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.EINVAL, () -> store.readlink(file));
        assertFsError(FsError.ENOENT, () -> store.readlink(999));
    }

    // --- lookup and readdir

    @Test
    public void lookupFindsCreatedEntry() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        assertEquals(Optional.of(new Dentry(Inode.ROOT, "d", dir.ino(), InodeType.DIRECTORY)),
                store.lookup(Inode.ROOT, "d"));
    }

    @Test
    public void lookupOfMissingNameIsEmpty() throws IOException {
        assertEquals(Optional.empty(), store.lookup(Inode.ROOT, "nothing"));
    }

    @Test
    public void lookupInNonDirectoryFailsWithEnotdir() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENOTDIR, () -> store.lookup(file, "x"));
        assertFsError(FsError.ENOENT, () -> store.lookup(999, "x"));
    }

    @Test
    public void readdirPagesThroughLargeDirectoryInOrder() throws IOException {
        long dir = mkdir(Inode.ROOT, "big").ino();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String name = "f" + Integer.toString(i * 7919 % 1000, 36); // created out of order
            expected.add(name);
            file(dir, name);
        }
        expected.sort(null);
        List<String> listed = new ArrayList<>();
        String after = null;
        for (List<Dentry> page; !(page = store.readdir(dir, after, 64)).isEmpty(); ) {
            assertTrue(page.size() <= 64, "page of " + page.size());
            page.forEach(d -> listed.add(d.name()));
            after = page.get(page.size() - 1).name();
        }
        assertEquals(expected, listed);
    }

    @Test
    public void readdirAfterAbsentNameStartsAtTheNextName() throws IOException {
        for (String name : List.of("a", "c", "e")) {
            file(Inode.ROOT, name);
        }
        assertEquals(List.of("c", "e"), names(store.readdir(Inode.ROOT, "b", 10)));
        assertEquals(List.of("c"), names(store.readdir(Inode.ROOT, "b", 1)));
        assertEquals(List.of(), names(store.readdir(Inode.ROOT, "e", 10)));
    }

    @Test
    public void readdirPagingYieldsEveryNonAsciiNameOnce() throws IOException {
        // includes characters outside the BMP, whose order may differ between engines
        Set<String> created = new HashSet<>(List.of("a", "é", "Ω", "日本", "\uD83D\uDE00", "\uFFFD", "z", "Z",
                "a\uD83D\uDE00", "a\uFFFD", "ß"));
        for (String name : created) {
            file(Inode.ROOT, name);
        }
        List<String> whole = names(store.readdir(Inode.ROOT, null, 100));
        for (int pageSize = 1; pageSize <= 4; pageSize++) {
            List<String> paged = new ArrayList<>();
            String after = null;
            for (List<Dentry> page; !(page = store.readdir(Inode.ROOT, after, pageSize)).isEmpty(); ) {
                page.forEach(d -> paged.add(d.name()));
                after = page.get(page.size() - 1).name();
            }
            assertEquals(whole, paged, "pages of " + pageSize);
        }
        assertEquals(created, new HashSet<>(whole));
        assertEquals(created.size(), whole.size());
    }

    @Test
    public void readdirOrdersNamesByCodePointInEveryEngine() throws IOException {
        // UTF-16 order would put the emoji (a surrogate pair, 0xD83D...) before U+FFFD; code points do not
        List<String> expected = List.of("A", "a", "a\uFFFD", "a\uD83D\uDE00", "\uFFFD", "\uD83D\uDE00");
        for (String name : List.of("\uD83D\uDE00", "a\uD83D\uDE00", "\uFFFD", "a", "A", "a\uFFFD")) {
            file(Inode.ROOT, name);
        }
        assertEquals(expected, names(store.readdir(Inode.ROOT, null, 100)));
        List<String> sorted = new ArrayList<>(expected);
        sorted.sort(Names.ORDER);
        assertEquals(expected, sorted);
    }

    @Test
    public void readdirOfNonDirectoryFailsWithEnotdir() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENOTDIR, () -> store.readdir(file, null, 10));
        assertFsError(FsError.ENOENT, () -> store.readdir(999, null, 10));
    }

    @Test
    public void readdirPlusPagesLikeReaddirWithEachEntrysCurrentInode() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        for (int i = 0; i < 10; i++) {
            file(dir, "f" + i, i * 100L);
        }
        mkdir(dir, "sub");
        List<DirectoryEntry> whole = store.readdirPlus(dir, null, 100);
        assertEquals(store.readdir(dir, null, 100), whole.stream().map(DirectoryEntry::dentry).toList());
        for (DirectoryEntry entry : whole) {
            assertEquals(store.getInode(entry.dentry().ino()), entry.inode());
        }
        List<DirectoryEntry> paged = new ArrayList<>();
        String after = null;
        for (List<DirectoryEntry> page; !(page = store.readdirPlus(dir, after, 3)).isEmpty(); ) {
            assertTrue(page.size() <= 3, "page of " + page.size());
            paged.addAll(page);
            after = page.get(page.size() - 1).dentry().name();
        }
        assertEquals(whole, paged);
    }

    @Test
    public void readdirPlusOfAnEmptyOrBadDirectory() throws IOException {
        long empty = mkdir(Inode.ROOT, "empty").ino();
        long file = file(Inode.ROOT, "f").ino();
        assertEquals(List.of(), store.readdirPlus(empty, null, 10));
        assertFsError(FsError.ENOTDIR, () -> store.readdirPlus(file, null, 10));
        assertFsError(FsError.ENOENT, () -> store.readdirPlus(999, null, 10));
    }

    // --- link

    @Test
    public void linkAddsNameAndIncrementsNlink() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        Inode file = file(Inode.ROOT, "f");
        long now = tick();
        Inode linked = store.link(file.ino(), dir, "g", now);
        assertEquals(2, linked.nlink());
        assertEquals(now, linked.ctimeNs());
        assertEquals(Inode.ROOT, linked.parent(), "the primary link stays");
        assertEquals("f", linked.name());
        assertEquals(file.ino(), store.lookup(dir, "g").orElseThrow().ino());
        assertEquals(now, store.getInode(dir).mtimeNs());
        assertEquals(now, store.getInode(dir).ctimeNs());
    }

    @Test
    public void linkOfDirectoryFailsWithEperm() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        assertFsError(FsError.EPERM, () -> store.link(dir, Inode.ROOT, "e", tick()));
    }

    @Test
    public void linkOntoTakenNameFailsWithEexist() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        file(Inode.ROOT, "g");
        assertFsError(FsError.EEXIST, () -> store.link(file, Inode.ROOT, "g", tick()));
        assertEquals(1, store.getInode(file).nlink());
    }

    @Test
    public void linkOfMissingInodeFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.link(999, Inode.ROOT, "g", tick()));
    }

    // --- unlink

    @Test
    public void unlinkOfLastNameDeletesInode() throws IOException {
        Inode file = file(Inode.ROOT, "f");
        long now = tick();
        RemovedLink removed = store.unlink(Inode.ROOT, "f", now);
        assertTrue(removed.deleted());
        assertTrue(removed.wasPrimary());
        assertFalse(removed.dataMustMove());
        assertEquals(file.ino(), removed.inode().ino());
        assertEquals(now, removed.inode().ctimeNs());
        assertFsError(FsError.ENOENT, () -> store.getInode(file.ino()));
        assertEquals(Optional.empty(), store.lookup(Inode.ROOT, "f"));
    }

    @Test
    public void unlinkSetsParentMtimeAndCtime() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        file(dir, "f");
        long now = tick();
        store.unlink(dir, "f", now);
        assertEquals(now, store.getInode(dir).mtimeNs());
        assertEquals(now, store.getInode(dir).ctimeNs());
    }

    @Test
    public void unlinkOfOtherNameKeepsPrimaryLink() throws IOException {
        Inode file = file(Inode.ROOT, "f");
        store.link(file.ino(), Inode.ROOT, "g", tick());
        long now = tick();
        RemovedLink removed = store.unlink(Inode.ROOT, "g", now);
        assertFalse(removed.wasPrimary());
        assertFalse(removed.deleted());
        assertEquals(1, removed.inode().nlink());
        assertEquals(now, removed.inode().ctimeNs());
        assertEquals("f", store.getInode(file.ino()).name());
    }

    @Test
    public void unlinkOfPrimaryLinkMovesPrimaryToRemainingName() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        Inode file = file(Inode.ROOT, "f");
        store.link(file.ino(), dir, "g", tick());
        RemovedLink removed = store.unlink(Inode.ROOT, "f", tick());
        assertTrue(removed.wasPrimary());
        assertTrue(removed.dataMustMove());
        assertEquals(1, removed.inode().nlink());
        assertEquals(dir, removed.inode().parent());
        assertEquals("g", removed.inode().name());
        assertEquals(removed.inode(), store.getInode(file.ino()));
    }

    @Test
    public void unlinkOfPrimaryLinkMovesPrimaryToOneOfSeveralNames() throws IOException {
        Inode file = file(Inode.ROOT, "f");
        for (String name : List.of("g", "h", "i")) {
            store.link(file.ino(), Inode.ROOT, name, tick());
        }
        Inode after = store.unlink(Inode.ROOT, "f", tick()).inode();
        assertEquals(3, after.nlink());
        assertTrue(Set.of("g", "h", "i").contains(after.name()), "primary moved to " + after.name());
        assertEquals(Inode.ROOT, after.parent());
    }

    @Test
    public void unlinkOfDirectoryFailsWithEisdir() throws IOException {
        mkdir(Inode.ROOT, "d");
        assertFsError(FsError.EISDIR, () -> store.unlink(Inode.ROOT, "d", tick()));
    }

    @Test
    public void unlinkOfMissingNameFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.unlink(Inode.ROOT, "nothing", tick()));
    }

    @Test
    public void unlinkOfLastNameDeletesXattrs() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        store.setXattr(file, "user.k", bytes("v"), XattrMode.UPSERT);
        store.unlink(Inode.ROOT, "f", tick());
        assertFsError(FsError.ENOENT, () -> store.getXattr(file, "user.k"));
        assertFsError(FsError.ENOENT, () -> store.listXattrs(file));
    }

    // --- rmdir

    @Test
    public void rmdirRemovesEmptyDirectory() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        Inode removed = store.rmdir(Inode.ROOT, "d", tick());
        assertEquals(dir.ino(), removed.ino());
        assertEquals(Optional.empty(), store.lookup(Inode.ROOT, "d"));
        assertFsError(FsError.ENOENT, () -> store.getInode(dir.ino()));
    }

    @Test
    public void rmdirDecrementsParentNlink() throws IOException {
        long parent = mkdir(Inode.ROOT, "p").ino();
        mkdir(parent, "a");
        mkdir(parent, "b");
        assertEquals(4, store.getInode(parent).nlink());
        long now = tick();
        store.rmdir(parent, "a", now);
        Inode after = store.getInode(parent);
        assertEquals(3, after.nlink());
        assertEquals(now, after.mtimeNs());
        assertEquals(now, after.ctimeNs());
    }

    @Test
    public void rmdirOfNonEmptyDirectoryFailsWithEnotempty() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        file(dir, "f");
        assertFsError(FsError.ENOTEMPTY, () -> store.rmdir(Inode.ROOT, "d", tick()));
        assertTrue(store.lookup(Inode.ROOT, "d").isPresent());
    }

    @Test
    public void rmdirOfFileFailsWithEnotdir() throws IOException {
        file(Inode.ROOT, "f");
        assertFsError(FsError.ENOTDIR, () -> store.rmdir(Inode.ROOT, "f", tick()));
    }

    @Test
    public void rmdirOfMissingNameFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.rmdir(Inode.ROOT, "nothing", tick()));
    }

    @Test
    public void rmdirDeletesXattrs() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        store.setXattr(dir, "user.k", bytes("v"), XattrMode.UPSERT);
        store.rmdir(Inode.ROOT, "d", tick());
        assertFsError(FsError.ENOENT, () -> store.listXattrs(dir));
    }

    // --- rename

    @Test
    public void renameMovesFileWithinDirectory() throws IOException {
        Inode file = file(Inode.ROOT, "a");
        long now = tick();
        Renamed renamed = store.rename(Inode.ROOT, "a", Inode.ROOT, "b", now);
        assertTrue(renamed.wasPrimary());
        assertEquals(Optional.empty(), renamed.replaced());
        assertEquals(file.ino(), renamed.moved().ino());
        assertEquals("b", renamed.moved().name());
        assertEquals(now, renamed.moved().ctimeNs());
        assertEquals(Optional.empty(), store.lookup(Inode.ROOT, "a"));
        assertEquals(file.ino(), store.lookup(Inode.ROOT, "b").orElseThrow().ino());
    }

    @Test
    public void renameBetweenDirectoriesMovesPrimaryLinkAndSetsBothParentsTimes() throws IOException {
        long src = mkdir(Inode.ROOT, "src").ino();
        long dst = mkdir(Inode.ROOT, "dst").ino();
        Inode file = file(src, "a");
        long now = tick();
        Renamed renamed = store.rename(src, "a", dst, "b", now);
        assertTrue(renamed.wasPrimary());
        Inode moved = store.getInode(file.ino());
        assertEquals(dst, moved.parent());
        assertEquals("b", moved.name());
        for (long dir : List.of(src, dst)) {
            assertEquals(now, store.getInode(dir).mtimeNs(), "mtime of " + dir);
            assertEquals(now, store.getInode(dir).ctimeNs(), "ctime of " + dir);
        }
    }

    @Test
    public void renameOfOtherNameKeepsPrimaryLink() throws IOException {
        Inode file = file(Inode.ROOT, "a");
        store.link(file.ino(), Inode.ROOT, "b", tick());
        Renamed renamed = store.rename(Inode.ROOT, "b", Inode.ROOT, "c", tick());
        assertFalse(renamed.wasPrimary());
        assertEquals("a", renamed.moved().name());
        assertEquals(2, renamed.moved().nlink());
    }

    @Test
    public void renameReplacesExistingFile() throws IOException {
        Inode source = file(Inode.ROOT, "a", 10);
        Inode target = file(Inode.ROOT, "b", 20);
        Renamed renamed = store.rename(Inode.ROOT, "a", Inode.ROOT, "b", tick());
        RemovedLink replaced = renamed.replaced().orElseThrow();
        assertEquals(target.ino(), replaced.inode().ino());
        assertTrue(replaced.deleted());
        assertTrue(replaced.wasPrimary());
        assertFsError(FsError.ENOENT, () -> store.getInode(target.ino()));
        assertEquals(source.ino(), store.lookup(Inode.ROOT, "b").orElseThrow().ino());
        assertEquals(new VolumeStats(2, 10), store.stats());
    }

    @Test
    public void renameReplacingHardLinkedFileKeepsItsOtherName() throws IOException {
        file(Inode.ROOT, "a");
        Inode target = file(Inode.ROOT, "b");
        store.link(target.ino(), Inode.ROOT, "c", tick());
        RemovedLink replaced = store.rename(Inode.ROOT, "a", Inode.ROOT, "b", tick()).replaced().orElseThrow();
        assertFalse(replaced.deleted());
        assertTrue(replaced.wasPrimary());
        assertEquals("c", replaced.inode().name(), "the replaced inode's primary link moved to its other name");
        assertEquals(1, store.getInode(target.ino()).nlink());
    }

    @Test
    public void renameOntoHardLinkOfSameInodeChangesNothing() throws IOException {
        Inode file = file(Inode.ROOT, "a");
        store.link(file.ino(), Inode.ROOT, "b", tick());
        Inode before = store.getInode(file.ino());
        Inode rootBefore = store.getInode(Inode.ROOT);
        Renamed renamed = store.rename(Inode.ROOT, "a", Inode.ROOT, "b", tick());
        assertEquals(Optional.empty(), renamed.replaced());
        assertFalse(renamed.wasPrimary(), "nothing moved, so no data must move");
        assertEquals(before, store.getInode(file.ino()));
        assertEquals(rootBefore, store.getInode(Inode.ROOT));
        assertTrue(store.lookup(Inode.ROOT, "a").isPresent());
        assertTrue(store.lookup(Inode.ROOT, "b").isPresent());
    }

    @Test
    public void renameOntoItselfChangesNothing() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        Inode before = store.getInode(dir);
        Renamed renamed = store.rename(Inode.ROOT, "d", Inode.ROOT, "d", tick());
        assertEquals(before, renamed.moved());
        assertEquals(before, store.getInode(dir));
        assertEquals(3, store.getInode(Inode.ROOT).nlink());
    }

    @Test
    public void renameOverNonEmptyDirectoryFailsWithEnotempty() throws IOException {
        mkdir(Inode.ROOT, "a");
        long target = mkdir(Inode.ROOT, "b").ino();
        file(target, "f");
        assertFsError(FsError.ENOTEMPTY, () -> store.rename(Inode.ROOT, "a", Inode.ROOT, "b", tick()));
        assertTrue(store.lookup(Inode.ROOT, "a").isPresent());
        assertTrue(store.lookup(target, "f").isPresent());
    }

    @Test
    public void renameReplacesEmptyDirectoryAndKeepsNlinkInStep() throws IOException {
        long src = mkdir(Inode.ROOT, "src").ino();
        long dst = mkdir(Inode.ROOT, "dst").ino();
        Inode moved = mkdir(src, "a");
        Inode target = mkdir(dst, "b");
        Renamed renamed = store.rename(src, "a", dst, "b", tick());
        RemovedLink replaced = renamed.replaced().orElseThrow();
        assertEquals(target.ino(), replaced.inode().ino());
        assertTrue(replaced.deleted());
        assertTrue(renamed.wasPrimary());
        assertEquals(moved.ino(), store.lookup(dst, "b").orElseThrow().ino());
        assertEquals(2, store.getInode(src).nlink());
        assertEquals(3, store.getInode(dst).nlink());
        assertFsError(FsError.ENOENT, () -> store.getInode(target.ino()));
    }

    @Test
    public void renameOfFileOntoDirectoryFailsWithEisdir() throws IOException {
        file(Inode.ROOT, "f");
        mkdir(Inode.ROOT, "d");
        assertFsError(FsError.EISDIR, () -> store.rename(Inode.ROOT, "f", Inode.ROOT, "d", tick()));
    }

    @Test
    public void renameOfDirectoryOntoFileFailsWithEnotdir() throws IOException {
        file(Inode.ROOT, "f");
        mkdir(Inode.ROOT, "d");
        assertFsError(FsError.ENOTDIR, () -> store.rename(Inode.ROOT, "d", Inode.ROOT, "f", tick()));
    }

    @Test
    public void renameOfDirectoryIntoItsOwnSubtreeFailsWithEinval() throws IOException {
        long a = mkdir(Inode.ROOT, "a").ino();
        long b = mkdir(a, "b").ino();
        long c = mkdir(b, "c").ino();
        assertFsError(FsError.EINVAL, () -> store.rename(Inode.ROOT, "a", a, "x", tick()));
        assertFsError(FsError.EINVAL, () -> store.rename(Inode.ROOT, "a", c, "x", tick()));
        assertFsError(FsError.EINVAL, () -> store.rename(a, "b", c, "b", tick()));
        assertEquals(a, store.lookup(Inode.ROOT, "a").orElseThrow().ino());
    }

    @Test
    public void renameOfDirectoryBetweenParentsMovesNlink() throws IOException {
        long src = mkdir(Inode.ROOT, "src").ino();
        long dst = mkdir(Inode.ROOT, "dst").ino();
        Inode dir = mkdir(src, "d");
        Renamed renamed = store.rename(src, "d", dst, "e", tick());
        assertTrue(renamed.wasPrimary(), "a directory's only name is its primary link");
        assertEquals(2, store.getInode(src).nlink());
        assertEquals(3, store.getInode(dst).nlink());
        Inode moved = store.getInode(dir.ino());
        assertEquals(dst, moved.parent());
        assertEquals("e", moved.name());
        assertEquals(2, moved.nlink());
    }

    @Test
    public void renameOfMissingSourceFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.rename(Inode.ROOT, "nothing", Inode.ROOT, "b", tick()));
    }

    @Test
    public void renameIntoMissingDirectoryFailsWithEnoent() throws IOException {
        file(Inode.ROOT, "a");
        assertFsError(FsError.ENOENT, () -> store.rename(Inode.ROOT, "a", 999, "b", tick()));
        assertTrue(store.lookup(Inode.ROOT, "a").isPresent());
    }

    // --- setAttr

    @Test
    public void setAttrChangesOnlyGivenFields() throws IOException {
        Inode file = file(Inode.ROOT, "f", 5);
        long now = tick();
        Inode changed = store.setAttr(file.ino(), SetAttr.mode(0600, now));
        assertEquals(0600, changed.mode());
        assertEquals(now, changed.ctimeNs());
        assertEquals(file.uid(), changed.uid());
        assertEquals(file.gid(), changed.gid());
        assertEquals(file.size(), changed.size());
        assertEquals(file.atimeNs(), changed.atimeNs());
        assertEquals(file.mtimeNs(), changed.mtimeNs());
        assertEquals(changed, store.getInode(file.ino()));
    }

    @Test
    public void setAttrChangesOwnerAndTimes() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        store.setAttr(file, SetAttr.owner(7, null, tick()));
        long now = tick();
        Inode changed = store.setAttr(file, SetAttr.times(11L, 12L, now));
        assertEquals(7, changed.uid());
        assertEquals(GID, changed.gid());
        assertEquals(11, changed.atimeNs());
        assertEquals(12, changed.mtimeNs());
        assertEquals(now, changed.ctimeNs());
    }

    @Test
    public void setAttrSizeChangeAdjustsUsedBytes() throws IOException {
        long file = file(Inode.ROOT, "f", 100).ino();
        file(Inode.ROOT, "g", 50);
        assertEquals(150, store.stats().usedBytes());
        store.setAttr(file, SetAttr.content(30, tick(), "v2"));
        assertEquals(80, store.stats().usedBytes());
        Inode changed = store.setAttr(file, SetAttr.content(1000, tick(), "v3"));
        assertEquals(1050, store.stats().usedBytes());
        assertEquals("v3", changed.ufsVersion());
        assertEquals(changed.ctimeNs(), changed.mtimeNs());
    }

    @Test
    public void setAttrOfMissingInodeFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.setAttr(999, SetAttr.mode(0600, tick())));
    }

    // --- xattrs

    @Test
    public void xattrValueIsReadBack() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        byte[] binary = {0, -1, 10, 0, 127};
        store.setXattr(file, "user.bin", binary, XattrMode.UPSERT);
        store.setXattr(file, "user.empty", new byte[0], XattrMode.UPSERT);
        assertArrayEquals(binary, store.getXattr(file, "user.bin").orElseThrow());
        assertArrayEquals(new byte[0], store.getXattr(file, "user.empty").orElseThrow());
        assertEquals(Optional.empty(), store.getXattr(file, "user.none"));
    }

    @Test
    public void xattrValueIsCopiedInAndOut() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        byte[] value = bytes("abc");
        store.setXattr(file, "user.k", value, XattrMode.UPSERT);
        value[0] = 'X';
        store.getXattr(file, "user.k").orElseThrow()[1] = 'Y';
        assertArrayEquals(bytes("abc"), store.getXattr(file, "user.k").orElseThrow());
    }

    @Test
    public void xattrCreateModeFailsWhenPresent() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        store.setXattr(file, "user.k", bytes("1"), XattrMode.CREATE);
        assertFsError(FsError.EEXIST, () -> store.setXattr(file, "user.k", bytes("2"), XattrMode.CREATE));
        assertArrayEquals(bytes("1"), store.getXattr(file, "user.k").orElseThrow());
    }

    @Test
    public void xattrReplaceModeFailsWhenMissing() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENODATA, () -> store.setXattr(file, "user.k", bytes("1"), XattrMode.REPLACE));
        store.setXattr(file, "user.k", bytes("1"), XattrMode.UPSERT);
        store.setXattr(file, "user.k", bytes("2"), XattrMode.REPLACE);
        assertArrayEquals(bytes("2"), store.getXattr(file, "user.k").orElseThrow());
    }

    @Test
    public void xattrUpsertReplacesValue() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        store.setXattr(file, "user.k", bytes("1"), XattrMode.UPSERT);
        store.setXattr(file, "user.k", bytes("22"), XattrMode.UPSERT);
        assertArrayEquals(bytes("22"), store.getXattr(file, "user.k").orElseThrow());
        assertEquals(List.of("user.k"), store.listXattrs(file));
    }

    @Test
    public void listXattrsIsInNameOrder() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        for (String name : List.of("user.c", "security.x", "user.a", "trusted.b")) {
            store.setXattr(dir, name, bytes(name), XattrMode.UPSERT);
        }
        assertEquals(List.of("security.x", "trusted.b", "user.a", "user.c"), store.listXattrs(dir));
        assertEquals(List.of(), store.listXattrs(Inode.ROOT));
    }

    @Test
    public void removeXattrRemovesOnlyThatName() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        store.setXattr(file, "user.a", bytes("1"), XattrMode.UPSERT);
        store.setXattr(file, "user.b", bytes("2"), XattrMode.UPSERT);
        store.removeXattr(file, "user.a");
        assertEquals(List.of("user.b"), store.listXattrs(file));
    }

    @Test
    public void removeXattrOfMissingNameFailsWithEnodata() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENODATA, () -> store.removeXattr(file, "user.none"));
    }

    @Test
    public void xattrOperationsOnMissingInodeFailWithEnoent() {
        assertFsError(FsError.ENOENT, () -> store.getXattr(999, "user.k"));
        assertFsError(FsError.ENOENT, () -> store.setXattr(999, "user.k", bytes("1"), XattrMode.UPSERT));
        assertFsError(FsError.ENOENT, () -> store.listXattrs(999));
        assertFsError(FsError.ENOENT, () -> store.removeXattr(999, "user.k"));
    }

    @Test
    public void xattrsAreKeptPerInode() throws IOException {
        long a = file(Inode.ROOT, "a").ino();
        long b = file(Inode.ROOT, "b").ino();
        store.setXattr(a, "user.k", bytes("a"), XattrMode.UPSERT);
        assertEquals(Optional.empty(), store.getXattr(b, "user.k"));
    }

    // --- mergeListing and markSynced

    @Test
    public void mergeListingAddsOnlyMissingNames() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        Inode existing = file(dir, "b", 3);
        int added = store.mergeListing(dir, List.of(listed("a", InodeType.FILE, 10), listed("b", InodeType.FILE, 99),
                listed("c", InodeType.DIRECTORY, 0)));
        assertEquals(2, added);
        assertEquals(List.of("a", "b", "c"), names(store.readdir(dir, null, 10)));
        assertEquals(existing, store.getInode(existing.ino()), "an existing name is left alone");
        assertEquals(0, store.mergeListing(dir, List.of(listed("a", InodeType.FILE, 10))));
    }

    @Test
    public void mergeListingSetsTimesAndVersionFromEntry() throws IOException {
        long now = tick();
        NewInode spec = new NewInode(InodeType.FILE, 0644, UID, GID, 0, 10, now, 42, null, "etag");
        store.mergeListing(Inode.ROOT, List.of(new ListedEntry("f", spec)));
        Inode file = store.getInode(store.lookup(Inode.ROOT, "f").orElseThrow().ino());
        assertEquals(42, file.mtimeNs());
        assertEquals(now, file.atimeNs());
        assertEquals(now, file.ctimeNs());
        assertEquals("etag", file.ufsVersion());
        assertEquals(10, file.size());
        assertEquals(1, file.nlink());
        assertEquals(Inode.ROOT, file.parent());
        assertEquals("f", file.name());
    }

    @Test
    public void mergeListingLeavesNewDirectoriesUnsynced() throws IOException {
        store.mergeListing(Inode.ROOT, List.of(listed("d", InodeType.DIRECTORY, 0)));
        Inode dir = store.getInode(store.lookup(Inode.ROOT, "d").orElseThrow().ino());
        assertEquals(Inode.NEVER_SYNCED, dir.syncedNs());
        assertEquals(2, dir.nlink());
        assertEquals(3, store.getInode(Inode.ROOT).nlink());
    }

    @Test
    public void mergeListingCountsInodesAndBytes() throws IOException {
        store.mergeListing(Inode.ROOT, List.of(listed("a", InodeType.FILE, 10), listed("b", InodeType.FILE, 20),
                listed("d", InodeType.DIRECTORY, 0)));
        assertEquals(new VolumeStats(4, 30), store.stats());
    }

    @Test
    public void mergeListingIntoNonDirectoryFailsWithEnotdir() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENOTDIR, () -> store.mergeListing(file, List.of(listed("a", InodeType.FILE, 1))));
        assertFsError(FsError.ENOENT, () -> store.mergeListing(999, List.of(listed("a", InodeType.FILE, 1))));
    }

    @Test
    public void markSyncedRecordsSyncTime() throws IOException {
        store.mergeListing(Inode.ROOT, List.of(listed("d", InodeType.DIRECTORY, 0)));
        long dir = store.lookup(Inode.ROOT, "d").orElseThrow().ino();
        store.markSynced(dir, 12345);
        assertEquals(12345, store.getInode(dir).syncedNs());
        store.markSynced(Inode.ROOT, 777);
        assertEquals(777, store.getInode(Inode.ROOT).syncedNs());
    }

    @Test
    public void markSyncedOfNonDirectoryFails() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        assertFsError(FsError.ENOTDIR, () -> store.markSynced(file, 1));
        assertFsError(FsError.ENOENT, () -> store.markSynced(999, 1));
    }

    // --- stats and settings

    @Test
    public void statsOfNewStoreCountRoot() throws IOException {
        assertEquals(new VolumeStats(1, 0), store.stats());
    }

    @Test
    public void statsCountInodesAndFileBytesOnly() throws IOException {
        file(Inode.ROOT, "f", 100);
        mkdir(Inode.ROOT, "d");
        store.create(Inode.ROOT, "l", NewInode.symlink("target-of-some-length", UID, GID, tick()));
        assertEquals(new VolumeStats(4, 100), store.stats());
    }

    @Test
    public void statsDropWhenInodesAreDeleted() throws IOException {
        Inode file = file(Inode.ROOT, "f", 100);
        store.link(file.ino(), Inode.ROOT, "g", tick());
        mkdir(Inode.ROOT, "d");
        store.unlink(Inode.ROOT, "f", tick());
        assertEquals(new VolumeStats(3, 100), store.stats(), "one name left: the inode stays");
        store.unlink(Inode.ROOT, "g", tick());
        store.rmdir(Inode.ROOT, "d", tick());
        assertEquals(new VolumeStats(1, 0), store.stats());
    }

    @Test
    public void settingIsReadBackAndReplaced() throws IOException {
        assertEquals(Optional.empty(), store.getSetting("ufs_uri"));
        store.putSetting("ufs_uri", "s3://bucket/a");
        assertEquals(Optional.of("s3://bucket/a"), store.getSetting("ufs_uri"));
        store.putSetting("ufs_uri", "s3://bucket/b");
        assertEquals(Optional.of("s3://bucket/b"), store.getSetting("ufs_uri"));
    }

    @Test
    public void formatVersionIsRecordedAndCannotBeChanged() throws IOException {
        assertEquals(Optional.of(Integer.toString(VolumeFormat.VERSION)),
                store.getSetting(VolumeFormat.VERSION_KEY));
        assertThrows(IllegalArgumentException.class, () -> store.putSetting(VolumeFormat.VERSION_KEY, "99"));
    }

    // --- concurrency and lifecycle

    @Test
    @Timeout(60)
    public void concurrentCreatesOfOneNameHaveOneWinner() throws Exception {
        int threads = 8;
        for (int round = 0; round < 20; round++) {
            String name = "race" + round;
            List<Callable<Inode>> creates = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                creates.add(() -> file(Inode.ROOT, name));
            }
            int winners = 0;
            for (Future<Inode> result : runTogether(creates)) {
                try {
                    result.get();
                    winners++;
                } catch (ExecutionException e) {
                    FsException failure = assertInstanceOf(FsException.class, e.getCause());
                    assertEquals(FsError.EEXIST, failure.error());
                }
            }
            assertEquals(1, winners, "winners of " + name);
        }
        assertEquals(new VolumeStats(21, 0), store.stats());
    }

    @Test
    @Timeout(60)
    public void concurrentCreatesOfDistinctNamesAllSucceed() throws Exception {
        List<Callable<Inode>> creates = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String name = "f" + i;
            creates.add(() -> file(Inode.ROOT, name, 1));
        }
        Set<Long> inodes = new HashSet<>();
        for (Future<Inode> result : runTogether(creates)) {
            inodes.add(result.get().ino());
        }
        assertEquals(200, inodes.size(), "distinct inode numbers");
        assertEquals(new VolumeStats(201, 200), store.stats());
    }

    @Test
    @Timeout(120)
    public void concurrentRenamesIntoAndOutOfOneDirectoryKeepEntriesAndNlinkConsistent() throws Exception {
        // each thread moves files and directories between its own directory and one shared by all,
        // with a few names only, so renames replace files and empty directories, and fail with
        // ENOENT, EISDIR, ENOTDIR and ENOTEMPTY; hard links into the shared directory move primaries
        int threads = 4;
        int renamesPerThread = 100;
        List<String> names = List.of("f0", "f1", "f2", "d0", "d1", "d2");
        long shared = mkdir(Inode.ROOT, "shared").ino();
        List<Long> homes = new ArrayList<>();
        Set<Long> created = new HashSet<>();
        for (int t = 0; t < threads; t++) {
            long home = mkdir(Inode.ROOT, "home" + t).ino();
            homes.add(home);
            for (int i = 0; i < 3; i++) {
                created.add(file(home, "f" + i, 10).ino());
                created.add(mkdir(home, "d" + i).ino());
            }
            long firstFile = store.lookup(home, "f0").orElseThrow().ino();
            store.link(firstFile, shared, "link" + t, tick());
            created.add(file(store.lookup(home, "d0").orElseThrow().ino(), "inner").ino()); // d0 is not empty
        }
        Set<FsError> expectedErrors = Set.of(FsError.ENOENT, FsError.EISDIR, FsError.ENOTDIR, FsError.ENOTEMPTY);
        List<Callable<Set<Long>>> tasks = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long home = homes.get(t);
            Random random = new Random(t);
            tasks.add(() -> {
                Set<Long> deleted = new HashSet<>();
                for (int i = 0; i < renamesPerThread; i++) {
                    boolean inward = random.nextBoolean();
                    String from = names.get(random.nextInt(names.size()));
                    String to = names.get(random.nextInt(names.size()));
                    try {
                        Renamed renamed = inward ? store.rename(home, from, shared, to, tick())
                                : store.rename(shared, from, home, to, tick());
                        renamed.replaced().filter(RemovedLink::deleted).ifPresent(r -> deleted.add(r.inode().ino()));
                    } catch (FsException e) {
                        assertTrue(expectedErrors.contains(e.error()), e.getMessage());
                    }
                }
                return deleted;
            });
        }
        Set<Long> deleted = new HashSet<>();
        for (Future<Set<Long>> result : runTogether(tasks)) {
            for (long ino : result.get()) {
                assertTrue(deleted.add(ino), "inode " + ino + " deleted twice");
            }
        }
        for (long ino : created) {
            if (deleted.contains(ino)) {
                assertFsError(FsError.ENOENT, () -> store.getInode(ino));
            } else {
                store.getInode(ino);
            }
        }
        // the root, the shared directory and the homes, then what survived (the tree itself is checked after the test)
        assertEquals(2 + threads + created.size() - deleted.size(), store.stats().inodes());
    }

    @Test
    @Timeout(60)
    public void crossedDirectoryMovesNeverMakeACycle() throws Exception {
        // a into b and b into a at once: one wins, the other is a move into its own subtree
        for (int round = 0; round < 20; round++) {
            String a = "a" + round;
            String b = "b" + round;
            long aIno = mkdir(Inode.ROOT, a).ino();
            long bIno = mkdir(Inode.ROOT, b).ino();
            List<Callable<Renamed>> moves = List.of(() -> store.rename(Inode.ROOT, a, bIno, a, tick()),
                    () -> store.rename(Inode.ROOT, b, aIno, b, tick()));
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

    @Test
    public void operationsAfterCloseFailWithIoException() throws IOException {
        MetaStore other = createStore();
        other.close();
        other.close(); // closing twice is harmless
        assertThrows(IOException.class, () -> other.getInode(Inode.ROOT));
        assertThrows(IOException.class, () -> other.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, tick())));
    }

    // --- the model-based test

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    public void randomOperationsMatchReferenceModel(long seed) throws IOException {
        new RandomOperations(store, seed).run(randomSteps());
    }

    @Test
    void prefetchLeavesTheNamespaceAsItWasAndTheStoreUsable() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        Inode file = file(dir.ino(), "f", 42);
        store.setXattr(file.ino(), "user.k", new byte[] {7}, XattrMode.UPSERT);
        Inode before = store.getInode(file.ino());

        store.prefetch();
        store.prefetch();

        assertEquals(before, store.getInode(file.ino()));
        assertEquals(file.ino(), store.lookup(dir.ino(), "f").orElseThrow().ino());
        assertArrayEquals(new byte[] {7}, store.getXattr(file.ino(), "user.k").orElseThrow());
        Inode made = file(dir.ino(), "g");
        assertEquals(List.of("f", "g"), store.readdir(dir.ino(), null, 10).stream().map(Dentry::name).toList());
        assertEquals(made.ino(), store.lookup(dir.ino(), "g").orElseThrow().ino());
    }

    /** Operations per seed of the model-based test; an engine behind a network may run fewer. */
    protected int randomSteps() {
        return 3_000;
    }

    // --- helpers

    protected long tick() {
        return clock.addAndGet(1_000);
    }

    protected Inode file(long parent, String name) throws IOException {
        return store.create(parent, name, NewInode.file(0644, UID, GID, tick()));
    }

    protected Inode file(long parent, String name, long size) throws IOException {
        long now = tick();
        return store.create(parent, name, new NewInode(InodeType.FILE, 0644, UID, GID, 0, size, now, now, null, null));
    }

    protected Inode mkdir(long parent, String name) throws IOException {
        return store.create(parent, name, NewInode.directory(0755, UID, GID, tick()));
    }

    protected static void assertFsError(FsError expected, Executable call) {
        FsException failure = assertThrows(FsException.class, call);
        assertEquals(expected, failure.error(), failure.getMessage());
    }

    private ListedEntry listed(String name, InodeType type, long size) {
        long now = tick();
        return new ListedEntry(name, new NewInode(type, 0644, UID, GID, 0, size, now, now, null, null));
    }

    private static List<String> names(List<Dentry> dentries) {
        return dentries.stream().map(Dentry::name).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Starts every task at once (as far as threads allow) and waits for all of them. */
    protected static <T> List<Future<T>> runTogether(List<Callable<T>> tasks) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(tasks.size(), 8));
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> results = new ArrayList<>();
            for (Callable<T> task : tasks) {
                results.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "tasks finished");
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
