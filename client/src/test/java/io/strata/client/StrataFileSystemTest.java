package io.strata.client;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.XattrMode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** POSIX behaviour of the file system over a real source directory and a real SQLite metastore. */
class StrataFileSystemTest {
    private static final Caller USER = new Caller(1000, 1000);
    // open(2) flags, Linux's values
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_TRUNC = 01000;
    /** Files whose last close races the removal of their name, in each race test. */
    private static final int RACES = 300;

    @TempDir
    Path source;
    @TempDir
    Path state;

    private StrataFileSystem fs;

    @BeforeEach
    void open() throws IOException {
        fs = StrataFileSystem.open(source.toUri(), options());
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    private Options options() {
        return new OptionsLoader(OptionRegistry.load()).set("state_dir", state.toString(), "test").build();
    }

    @Test
    void filesAlreadyInTheSourceAppearWithTheirContent() throws IOException {
        Files.createDirectories(source.resolve("a/b"));
        Files.writeString(source.resolve("a/b/c.txt"), "hello");
        fs.close();
        fs = StrataFileSystem.open(source.toUri(), options());

        assertThat(fs.getattr("/a/b/c.txt").size()).isEqualTo(5);
        assertThat(read("/a/b/c.txt")).isEqualTo("hello");
        assertThat(names("/a")).containsExactly("b");
    }

    @Test
    void createdFileLandsInTheSourceUnderTheSameName() throws IOException {
        fs.mkdir("/dir", 0755, USER);
        write("/dir/f.txt", "data");

        assertThat(Files.readString(source.resolve("dir/f.txt"))).isEqualTo("data");
        Inode inode = fs.getattr("/dir/f.txt");
        assertThat(inode.uid()).isEqualTo(1000);
        assertThat(inode.size()).isEqualTo(4);
    }

    @Test
    void mkdirUnderADirectoryNotYetInTheStorageMakesItThereToo() throws IOException {
        fs.mkdir("/made", 0755, USER);
        Files.delete(source.resolve("made")); // as if another client had not yet brought the storage along

        fs.mkdir("/made/child", 0755, USER);

        assertThat(source.resolve("made/child")).isDirectory();
    }

    @Test
    void mkdirOverAFileInTheStorageFailsAndLeavesNoName() throws IOException {
        fs.readdir("/", entry -> { });
        Files.writeString(source.resolve("taken"), "a file");

        assertThatThrownBy(() -> fs.mkdir("/taken", 0755, USER))
                .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.error()).isEqualTo(FsError.EEXIST));
        assertThat(names("/")).doesNotContain("taken");
    }

    @Test
    void renameOverExistingFileReplacesItInTheSource() throws IOException {
        write("/a", "new");
        write("/b", "old");

        fs.rename("/a", "/b");

        assertThat(read("/b")).isEqualTo("new");
        assertThat(Files.exists(source.resolve("a"))).isFalse();
        assertThat(Files.readString(source.resolve("b"))).isEqualTo("new");
    }

    @Test
    void renamedDirectoryMovesItsSubtreeInTheSource() throws IOException {
        fs.mkdir("/d", 0755, USER);
        fs.mkdir("/d/e", 0755, USER);
        write("/d/e/f", "x");

        fs.rename("/d", "/moved");

        assertThat(read("/moved/e/f")).isEqualTo("x");
        assertThat(Files.readString(source.resolve("moved/e/f"))).isEqualTo("x");
        assertThatThrownBy(() -> fs.getattr("/d")).isInstanceOf(FsException.class);
    }

    @Test
    void unlinkingTheDataNameOfAHardLinkMovesTheDataToTheRemainingName() throws IOException {
        write("/original", "shared");
        fs.link("/original", "/other");
        assertThat(fs.getattr("/other").nlink()).isEqualTo(2);

        fs.unlink("/original");

        assertThat(read("/other")).isEqualTo("shared");
        assertThat(fs.getattr("/other").nlink()).isEqualTo(1);
        assertThat(Files.exists(source.resolve("original"))).isFalse();
        assertThat(Files.readString(source.resolve("other"))).isEqualTo("shared");
    }

    @Test
    void renameBetweenTwoLinksOfOneFileChangesNothing() throws IOException {
        write("/one", "x");
        fs.link("/one", "/two");

        fs.rename("/one", "/two");

        assertThat(fs.getattr("/one").nlink()).isEqualTo(2);
        assertThat(read("/two")).isEqualTo("x");
    }

    @Test
    void writesAtRandomOffsetsAndTruncateKeepContentAndSize() throws IOException {
        long fh = fs.create("/f", 0644, USER);
        fs.write(fh, utf8("world"), 6);
        fs.write(fh, utf8("hello "), 0);
        assertThat(fs.fstat(fh).size()).isEqualTo(11);
        fs.ftruncate(fh, 5);
        fs.release(fh);

        assertThat(read("/f")).isEqualTo("hello");
        fs.truncate("/f", 8);
        assertThat(Files.readAllBytes(source.resolve("f"))).containsExactly('h', 'e', 'l', 'l', 'o', 0, 0, 0);
        assertThat(fs.getattr("/f").size()).isEqualTo(8);
    }

    @Test
    void symlinksXattrsModesAndOwnersLiveInTheMetastore() throws IOException {
        write("/f", "x");
        fs.symlink("f", "/link", USER);
        fs.setxattr("/f", "user.tag", new byte[] {1, 2}, XattrMode.CREATE);
        fs.chmod("/f", 0600);
        fs.chown("/f", 42, -1);

        assertThat(fs.readlink("/link")).isEqualTo("f");
        assertThat(fs.getxattr("/f", "user.tag")).hasValueSatisfying(v -> assertThat(v).containsExactly(1, 2));
        assertThat(fs.listxattr("/f")).containsExactly("user.tag");
        Inode inode = fs.getattr("/f");
        assertThat(inode.mode()).isEqualTo(0600);
        assertThat(inode.uid()).isEqualTo(42);
        assertThat(inode.gid()).isEqualTo(1000);
        assertThat(Files.exists(source.resolve("link"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test
    void securityLabelsAndPosixAclsAreNotSupported() throws IOException {
        write("/f", "x");
        for (String name : List.of("security.selinux", "security.capability", "system.posix_acl_access",
                "system.posix_acl_default")) {
            assertErrno(() -> fs.getxattr("/f", name), FsError.ENOTSUP);
            assertErrno(() -> fs.setxattr("/f", name, new byte[] {1}, XattrMode.UPSERT), FsError.ENOTSUP);
            assertErrno(() -> fs.removexattr("/f", name), FsError.ENOTSUP);
        }
        assertErrno(() -> fs.getxattr("/missing", "security.selinux"), FsError.ENOENT);
        assertThat(fs.listxattr("/f")).isEmpty();
    }

    @Test
    void userMistakesGetTheirOwnErrno() throws IOException {
        fs.mkdir("/d", 0755, USER);
        write("/d/f", "x");
        write("/file", "x");

        assertErrno(() -> fs.mkdir("/d", 0755, USER), FsError.EEXIST);
        assertErrno(() -> fs.rmdir("/d"), FsError.ENOTEMPTY);
        assertErrno(() -> fs.getattr("/missing"), FsError.ENOENT);
        assertErrno(() -> fs.getattr("/file/x"), FsError.ENOTDIR);
        assertErrno(() -> fs.open("/d", 1), FsError.EISDIR);
        assertErrno(() -> fs.unlink("/d"), FsError.EISDIR);
        assertErrno(() -> fs.rename("/d", "/d/f/sub"), FsError.ENOTDIR);
        assertErrno(() -> fs.mkdir("/" + "n".repeat(256), 0755, USER), FsError.ENAMETOOLONG);
    }

    @Test
    void readOnlyVolumeRefusesChangesWithErofs() throws IOException {
        write("/f", "x");
        fs.close();
        fs = StrataFileSystem.open(source.toUri(), options().with(VolumeOptions.READ_ONLY, true));

        assertErrno(() -> fs.mkdir("/d", 0755, USER), FsError.EROFS);
        assertErrno(() -> fs.open("/f", 2), FsError.EROFS);
        assertThat(read("/f")).isEqualTo("x");
    }

    @Test
    void aReadOnlyOpenWithTruncEmptiesTheFileAsLinuxDoes() throws IOException {
        write("/f", "hello");
        long fh = fs.open("/f", O_RDONLY | O_TRUNC);
        fs.release(fh);

        assertThat(fs.getattr("/f").size()).isZero();
        assertThat(Files.size(source.resolve("f"))).isZero();
    }

    @Test
    void aTruncatingOpenOfARunningProgramsFileIsTextFileBusyUntilTheProgramEnds() throws IOException {
        write("/program", "code");
        long running = fs.open("/program", O_RDONLY | StrataFileSystem.FMODE_EXEC);

        assertErrno(() -> fs.open("/program", O_RDONLY | O_TRUNC), FsError.ETXTBSY);
        assertErrno(() -> fs.open("/program", O_WRONLY | O_TRUNC), FsError.ETXTBSY);
        assertThat(read("/program")).isEqualTo("code");

        fs.release(running);
        fs.release(fs.open("/program", O_WRONLY | O_TRUNC));
        assertThat(fs.getattr("/program").size()).isZero();
    }

    @Test
    void aSetGroupIdDirectoryHandsItsGroupToEverythingMadeInItAndItsBitToNewDirectories() throws IOException {
        fs.mkdir("/shared", 0775, USER);
        fs.chown("/shared", 1000, 500);
        fs.chmod("/shared", 02775);

        fs.release(fs.create("/shared/file", 0644, USER));
        Inode dir = fs.mkdir("/shared/dir", 0755, USER);
        Inode link = fs.symlink("file", "/shared/link", USER);
        Inode fifo = fs.mknod("/shared/fifo", 0010644, 0, USER);

        assertThat(fs.getattr("/shared/file").gid()).isEqualTo(500);
        assertThat(fs.getattr("/shared/file").mode() & 07777).isEqualTo(0644);
        assertThat(dir.gid()).isEqualTo(500);
        assertThat(dir.mode() & 07777).isEqualTo(02755);
        assertThat(link.gid()).isEqualTo(500);
        assertThat(fifo.gid()).isEqualTo(500);
    }

    @Test
    void withoutTheBitNewInodesTakeTheCallersGroup() throws IOException {
        fs.mkdir("/plain", 0775, USER);
        fs.chown("/plain", 1000, 500);

        assertThat(fs.mkdir("/plain/dir", 0755, USER).gid()).isEqualTo(1000);
        assertThat(fs.getattr("/plain/dir").mode() & 07777).isEqualTo(0755);
    }

    @Test
    void metastoreBoundToAnotherSourceIsRefused(@TempDir Path otherSource) throws IOException {
        String metaUrl = fs.metaUrl();
        Options sameMeta = new OptionsLoader(OptionRegistry.load()).set("meta", metaUrl, "test").build();
        fs.close();

        assertThatThrownBy(() -> StrataFileSystem.open(otherSource.toUri(), sameMeta))
                .hasMessageContaining("belongs to")
                .hasMessageContaining("-o meta=");
        fs = StrataFileSystem.open(source.toUri(), sameMeta);
    }

    @Test
    void openedForFirstUseTheVolumeAnswersFromTheMetastoreAndFailsOnlyWhatNeedsTheStorage(@TempDir Path away)
            throws IOException {
        Files.createDirectories(source.resolve("a"));
        Files.writeString(source.resolve("a/c.txt"), "hello");
        assertThat(names("/a")).containsExactly("c.txt");
        fs.close();
        Path moved = away.resolve("moved");
        Files.move(source, moved);
        try {
            assertThatThrownBy(() -> StrataFileSystem.open(source.toUri(), options()))
                    .hasMessageContaining("under storage directory does not exist");

            fs = StrataFileSystem.open(source.toUri(), options(), new SimpleMeterRegistry(), StorageCheck.AT_FIRST_USE);
            assertThat(names("/a")).containsExactly("c.txt");
            assertThat(fs.getattr("/a/c.txt").size()).isEqualTo(5);
            assertThatThrownBy(() -> read("/a/c.txt")).hasMessageContaining("under storage directory does not exist");
            fs.close();
        } finally {
            Files.move(moved, source);
        }
        fs = StrataFileSystem.open(source.toUri(), options(), new SimpleMeterRegistry(), StorageCheck.AT_FIRST_USE);
        assertThat(read("/a/c.txt")).isEqualTo("hello");
    }

    @Test
    void warmUpReadsThroughTheMetastoreEngineAndChangesNothing() throws IOException {
        Files.createDirectories(source.resolve("a"));
        Files.writeString(source.resolve("a/f"), "x");
        fs.close();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        fs = StrataFileSystem.open(source.toUri(), options(), registry);
        double pages = engineCalls(registry, "readdir_plus");

        fs.warmUp();

        assertThat(engineCalls(registry, "readdir_plus")).isGreaterThan(pages);
        assertThat(names("/")).containsExactly("a");
        assertThat(read("/a/f")).isEqualTo("x");
    }

    private static double engineCalls(SimpleMeterRegistry registry, String op) {
        var timer = registry.find("strata.meta.ops").tag("op", op).timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void sourceWithAndWithoutTrailingSlashSharesOneDefaultMetastore() throws IOException {
        String withSlash = fs.metaUrl();
        fs.close();
        fs = StrataFileSystem.open(java.net.URI.create(source.toUri().toString().replaceAll("/$", "")), options());
        assertThat(source.toUri().toString()).endsWith("/");
        assertThat(fs.metaUrl()).isEqualTo(withSlash);
    }

    @Test
    void openFileReportsUnflushedSizeAndKeepsItAfterRelease() throws IOException {
        long fh = fs.create("/f", 0644, USER);
        fs.write(fh, utf8("12345"), 0);
        assertThat(fs.getattr("/f").size()).isEqualTo(5);
        fs.release(fh);

        fs.close();
        fs = StrataFileSystem.open(source.toUri(), options());
        assertThat(fs.getattr("/f").size()).isEqualTo(5);
    }

    @Test
    void listingWithAttributesShowsWhatAStatShowsIncludingAnOpenFilesUnflushedSize() throws IOException {
        fs.mkdir("/d", 0755, USER);
        write("/d/closed", "abc");
        long fh = fs.create("/d/open", 0600, USER);
        fs.write(fh, utf8("1234567"), 0);
        long dir = fs.getattr("/d").ino();

        List<DirectoryEntry> listed = fs.readdirPlus(dir, null, 10);

        assertThat(listed).extracting(entry -> entry.dentry().name()).containsExactly("closed", "open");
        for (DirectoryEntry entry : listed) {
            assertThat(entry.inode()).isEqualTo(fs.stat(entry.dentry().ino()));
        }
        assertThat(listed.get(1).inode().size()).isEqualTo(7);
        fs.release(fh);
    }

    @Test
    void fileHiddenWhileOpenLeavesTheUsersDirectoryAndGoesAtTheLastClose() throws IOException {
        write("/dir-less", "kept while open");
        long fh = fs.open("/dir-less", 0);

        // What libfuse does on unlink of an open file: a rename to a hidden name, unlinked after release.
        fs.rename("/dir-less", "/.fuse_hidden0000000100000001");

        assertThat(Files.exists(source.resolve("dir-less"))).isFalse();
        assertThat(Files.exists(source.resolve(".fuse_hidden0000000100000001"))).isFalse();
        ByteBuffer buffer = ByteBuffer.allocate(64);
        fs.read(fh, buffer, 0);
        assertThat(new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8))
                .isEqualTo("kept while open");
        assertThat(fs.getattr("/.fuse_hidden0000000100000001").size()).isEqualTo(15);

        fs.release(fh);

        assertErrno(() -> fs.getattr("/.fuse_hidden0000000100000001"), FsError.ENOENT);
        try (var files = Files.walk(source)) {
            assertThat(files.filter(Files::isRegularFile).toList()).as("data left in the source").isEmpty();
        }
    }

    @Test
    void anUnmountWithAnUnlinkedFileStillOpenLeavesNothingOfItInTheSource() throws IOException {
        long fh = fs.create("/open.txt", 0644, USER);
        fs.write(fh, utf8("kept while open"), 0);
        fs.flush(fh);
        fs.unlink("/open.txt"); // kept for the handle, its data under the session's directory
        assertThat(regularFilesIn(source)).as("the kept data").hasSize(1);

        fs.close(); // the handle still open, as when a daemon is stopped under a reader

        assertThat(regularFilesIn(source)).as("data left in the source").isEmpty();
        try (var sessions = Files.list(source.resolve(".strata/sessions"))) {
            assertThat(sessions.toList()).as("session directories left").isEmpty();
        }
        fs = StrataFileSystem.open(source.toUri(), options());
    }

    @Test
    void aLastNameRemovedWhileItsLastCloseRunsLeavesNothingKept() throws Exception {
        raceTheLastCloseOfEachFileWith(path -> () -> fs.unlink(path));

        assertThat(regularFilesIn(source)).as("data left in the source").isEmpty();
    }

    @Test
    void aLastNameReplacedWhileItsLastCloseRunsLeavesOnlyTheNewFile() throws Exception {
        raceTheLastCloseOfEachFileWith(path -> () -> {
            write(path + ".new", "new");
            fs.rename(path + ".new", path);
        });

        assertThat(regularFilesIn(source)).as("data left in the source").hasSize(RACES);
        assertThat(read("/raced0")).isEqualTo("new");
    }

    @Test
    void anUnlinkedFileTruncatedWhileItsLastCloseRunsLeavesNothingKept() throws Exception {
        // truncate(2) of /proc/PID/fd/N reaches an unlinked file by inode, without a handle.
        raceTheLastCloseOfEachFileWith(path -> {
            long ino = fs.getattr(path).ino();
            fs.unlink(path); // kept for the open handle
            return () -> {
                try {
                    fs.truncate(ino, 0);
                } catch (FsException e) {
                    assertThat(e.error()).as("a truncate after the last close").isEqualTo(FsError.ENOENT);
                }
            };
        });

        assertThat(regularFilesIn(source)).as("data left in the source").isEmpty();
    }

    /**
     * Closes each of {@link #RACES} files while what {@code racer} makes ready for it runs on
     * another thread, as when the kernel sends a RELEASE after close(2) has returned and an rm or
     * a truncate follows: neither may leave the session holding half of the keeping.
     */
    private void raceTheLastCloseOfEachFileWith(Racer racer) throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < RACES; i++) {
                String path = "/raced" + i;
                long fh = fs.create(path, 0644, USER);
                fs.write(fh, utf8("old"), 0);
                IoTask raced = racer.readyFor(path);
                CyclicBarrier together = new CyclicBarrier(2);
                Future<?> release = workers.submit(() -> {
                    together.await();
                    fs.release(fh);
                    return null;
                });
                Future<?> other = workers.submit(() -> {
                    together.await();
                    raced.run();
                    return null;
                });
                release.get();
                other.get();
            }
        } finally {
            workers.shutdownNow();
        }
    }

    /** What races a file's last close, made ready once the file at {@code path} is written and open. */
    private interface Racer {
        IoTask readyFor(String path) throws IOException;
    }

    private interface IoTask {
        void run() throws IOException;
    }

    private static List<Path> regularFilesIn(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void reservedDirectoryIsNeitherListedNorReachable() throws IOException {
        write("/f", "x");
        long fh = fs.open("/f", 0);
        fs.rename("/f", "/.fuse_hidden0000000200000001"); // makes the session keep something
        try {
            assertThat(names("/")).doesNotContain(".strata");
            assertErrno(() -> fs.getattr("/.strata"), FsError.ENOENT);
            assertErrno(() -> fs.getattr("/.strata/sessions"), FsError.ENOENT);
        } finally {
            fs.release(fh);
        }
    }

    @Test
    void byDefaultADirectoryIsListedOnceAndLaterChangesInTheSourceDoNotShow() throws IOException {
        assertThat(names("/")).isEmpty();
        Files.writeString(source.resolve("late.txt"), "made by another tool");

        assertThat(names("/")).isEmpty();
    }

    @Test
    void withASyncIntervalTheMountFollowsChangesMadeInTheSource() throws IOException {
        fs.close();
        fs = StrataFileSystem.open(source.toUri(), options().with(VolumeOptions.METADATA_SYNC_INTERVAL,
                java.time.Duration.ZERO));
        Files.writeString(source.resolve("changed.txt"), "v1");
        Files.writeString(source.resolve("removed.txt"), "x");
        assertThat(names("/")).containsExactly("changed.txt", "removed.txt");
        assertThat(read("/changed.txt")).isEqualTo("v1");

        Files.writeString(source.resolve("added.txt"), "new");
        Files.writeString(source.resolve("changed.txt"), "version 2");
        Files.delete(source.resolve("removed.txt"));

        assertThat(names("/")).containsExactly("added.txt", "changed.txt");
        assertThat(fs.getattr("/changed.txt").size()).isEqualTo(9);
        assertThat(read("/changed.txt")).isEqualTo("version 2");
    }

    @Test
    void aFileDeletedFromTheSourceLosesItsNameAtItsNextOpen() throws IOException {
        Files.writeString(source.resolve("gone.txt"), "x");
        Files.writeString(source.resolve("kept.txt"), "y");
        assertThat(names("/")).containsExactly("gone.txt", "kept.txt");
        Files.delete(source.resolve("gone.txt"));

        assertErrno(() -> fs.open("/gone.txt", O_RDONLY), FsError.ENOENT);
        assertThat(names("/")).containsExactly("kept.txt");
        assertErrno(() -> fs.getattr("/gone.txt"), FsError.ENOENT);
    }

    @Test
    void aFileWithTwoNamesKeepsThemWhenItsDataIsGoneFromTheSource() throws IOException {
        write("/data", "x");
        fs.link("/data", "/hard");
        Files.delete(source.resolve("data"));

        assertErrno(() -> fs.open("/hard", O_RDONLY), FsError.ENOENT);
        assertThat(names("/")).containsExactly("data", "hard");
    }

    @Test
    void resyncKeepsWhatTheSourceCannotHoldAndFilesOpenHere() throws IOException {
        fs.close();
        fs = StrataFileSystem.open(source.toUri(), options().with(VolumeOptions.METADATA_SYNC_INTERVAL,
                java.time.Duration.ZERO));
        write("/data", "x");
        fs.symlink("data", "/link", USER);
        fs.link("/data", "/hard");
        long fh = fs.create("/open", 0644, USER);
        Files.delete(source.resolve("open")); // gone behind our back while open here

        assertThat(names("/")).containsExactly("data", "hard", "link", "open");
        fs.release(fh);
    }

    private void assertErrno(ThrowingCall call, FsError expected) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(FsException.class,
                e -> assertThat(e.error()).isEqualTo(expected));
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws IOException;
    }

    private void write(String path, String text) throws IOException {
        long fh = fs.create(path, 0644, USER);
        fs.write(fh, utf8(text), 0);
        fs.flush(fh);
        fs.release(fh);
    }

    private String read(String path) throws IOException {
        long fh = fs.open(path, 0);
        try {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
            fs.read(fh, buffer, 0);
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        } finally {
            fs.release(fh);
        }
    }

    private List<String> names(String dir) throws IOException {
        List<String> names = new ArrayList<>();
        fs.readdir(dir, (Dentry d) -> names.add(d.name()));
        return names;
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }
}
