package io.strata.client;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.conf.OptionsLoader;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The inode-level API the kernel's FUSE protocol calls, over a real source directory and SQLite metastore. */
class InodeApiTest {
    private static final Caller USER = new Caller(1000, 1000);
    private static final long ROOT = Inode.ROOT;
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_RDWR = 2;
    private static final int O_TRUNC = 01000;

    @TempDir
    Path source;
    @TempDir
    Path state;

    private StrataFileSystem fs;

    @BeforeEach
    void open() throws IOException {
        Options options = new OptionsLoader(OptionRegistry.load()).set("state_dir", state.toString(), "test").build();
        fs = StrataFileSystem.open(source.toUri(), options);
    }

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    @Test
    void lookupFindsTheInodeOfAnExistingName() throws IOException {
        long ino = write(ROOT, "f", "data");

        Inode found = fs.lookup(ROOT, "f");

        assertThat(found.ino()).isEqualTo(ino);
        assertThat(found.size()).isEqualTo(4);
    }

    @Test
    void lookupOfAMissingNameIsEnoent() {
        assertErrno(() -> fs.lookup(ROOT, "missing"), FsError.ENOENT);
    }

    @Test
    void lookupInAFileIsEnotdir() throws IOException {
        long file = write(ROOT, "f", "x");

        assertErrno(() -> fs.lookup(file, "x"), FsError.ENOTDIR);
    }

    @Test
    void lookupMergesTheListingOfADirectoryNeverLookedInto() throws IOException {
        Files.createDirectories(source.resolve("made/elsewhere"));
        Files.writeString(source.resolve("made/elsewhere/file.txt"), "by another tool");

        long made = fs.lookup(ROOT, "made").ino();
        long elsewhere = fs.lookup(made, "elsewhere").ino();

        assertThat(fs.lookup(elsewhere, "file.txt").size()).isEqualTo(15);
    }

    @Test
    void lookupNeverFindsTheReservedDirectory() {
        assertErrno(() -> fs.lookup(ROOT, ".strata"), FsError.ENOENT);
    }

    @Test
    void namesOverNameMaxBytesAreEnametoolong() {
        String twoHundredFiftySixBytes = "é".repeat(128);

        assertErrno(() -> fs.lookup(ROOT, twoHundredFiftySixBytes), FsError.ENAMETOOLONG);
        assertErrno(() -> fs.mkdir(ROOT, twoHundredFiftySixBytes, 0755, USER), FsError.ENAMETOOLONG);
    }

    @Test
    void namesThatAreNotOnePathComponentAreEinval() {
        for (String name : List.of("", "a/b", ".", "..")) {
            assertErrno(() -> fs.lookup(ROOT, name), FsError.EINVAL);
        }
    }

    @Test
    void statShowsEveryHardLinkInTheNlinkOfTheOneInode() throws IOException {
        long ino = write(ROOT, "one", "x");
        long dir = fs.mkdir(ROOT, "d", 0755, USER).ino();

        Inode linked = fs.link(ino, dir, "two");

        assertThat(linked.nlink()).isEqualTo(2);
        assertThat(fs.lookup(ROOT, "one").ino()).isEqualTo(ino);
        assertThat(fs.lookup(dir, "two").ino()).isEqualTo(ino);
        assertThat(fs.stat(ino).nlink()).isEqualTo(2);
    }

    @Test
    void unlinkedOpenFileStaysReadableAndWritableThroughItsHandle() throws IOException {
        StrataFileSystem.Created created = fs.create(ROOT, "f", 0644, O_RDWR, USER);
        fs.write(created.fh(), utf8("before"), 0);
        fs.flush(created.fh());

        fs.unlink(ROOT, "f");
        fs.write(created.fh(), utf8(" after"), 6);

        assertThat(read(created.fh())).isEqualTo("before after");
        assertErrno(() -> fs.lookup(ROOT, "f"), FsError.ENOENT);
        assertThat(Files.exists(source.resolve("f"))).isFalse();
        fs.release(created.fh());
    }

    @Test
    void unlinkedOpenFileHasNlinkZero() throws IOException {
        StrataFileSystem.Created created = fs.create(ROOT, "f", 0644, O_RDWR, USER);

        fs.unlink(ROOT, "f");

        assertThat(fs.fstat(created.fh()).nlink()).isZero();
        assertThat(fs.stat(created.inode().ino()).nlink()).isZero();
        fs.release(created.fh());
    }

    @Test
    void lastReleaseOfAnUnlinkedFileRemovesItsDataFromTheSource() throws IOException {
        StrataFileSystem.Created created = fs.create(ROOT, "f", 0644, O_RDWR, USER);
        fs.write(created.fh(), utf8("doomed"), 0);
        fs.unlink(ROOT, "f");

        fs.release(created.fh());

        assertThat(regularFilesInTheSource()).isEmpty();
        assertErrno(() -> fs.stat(created.inode().ino()), FsError.ENOENT);
    }

    @Test
    void lastReleaseOfAnUnlinkedFileLeavesANewFileOfTheSameNameAlone() throws IOException {
        StrataFileSystem.Created unlinked = fs.create(ROOT, "f", 0644, O_RDWR, USER);
        fs.unlink(ROOT, "f");
        long newer = write(ROOT, "f", "newer");

        fs.release(unlinked.fh());

        assertThat(fs.lookup(ROOT, "f").ino()).isEqualTo(newer);
        assertThat(Files.readString(source.resolve("f"))).isEqualTo("newer");
    }

    @Test
    void fileReplacedByARenameWhileOpenStaysReadableUntilItsLastRelease() throws IOException {
        write(ROOT, "old", "old content");
        write(ROOT, "new", "new content");
        long old = fs.open(fs.lookup(ROOT, "old").ino(), O_RDONLY);

        fs.rename(ROOT, "new", ROOT, "old", 0);

        assertThat(read(old)).isEqualTo("old content");
        assertThat(fs.fstat(old).nlink()).isZero();
        fs.release(old);
        assertThat(regularFilesInTheSource()).containsExactly(source.resolve("old"));
        assertThat(Files.readString(source.resolve("old"))).isEqualTo("new content");
    }

    @Test
    void renameNoreplaceOntoAnExistingNameIsEexist() throws IOException {
        write(ROOT, "a", "a");
        write(ROOT, "b", "b");

        assertErrno(() -> fs.rename(ROOT, "a", ROOT, "b", StrataFileSystem.RENAME_NOREPLACE), FsError.EEXIST);
        assertThat(Files.readString(source.resolve("a"))).isEqualTo("a");
        assertThat(Files.readString(source.resolve("b"))).isEqualTo("b");
    }

    @Test
    void renameExchangeIsEinval() throws IOException {
        write(ROOT, "a", "a");
        write(ROOT, "b", "b");

        assertErrno(() -> fs.rename(ROOT, "a", ROOT, "b", StrataFileSystem.RENAME_EXCHANGE), FsError.EINVAL);
    }

    @Test
    void openWithOTruncEmptiesTheFile() throws IOException {
        long ino = write(ROOT, "f", "some content");

        long fh = fs.open(ino, O_WRONLY | O_TRUNC);

        assertThat(fs.fstat(fh).size()).isZero();
        fs.release(fh);
        assertThat(fs.stat(ino).size()).isZero();
        assertThat(Files.size(source.resolve("f"))).isZero();
    }

    @Test
    void truncateBeyondTheLargestFileIsEfbig() throws IOException {
        long ino = write(ROOT, "f", "x");

        assertErrno(() -> fs.truncate(ino, 999_999_999_999_999L), FsError.EFBIG);
    }

    @Test
    void clearingSetIdBitsDropsSetuidAndTheSetgidOfAGroupExecutableFile() throws IOException {
        long ino = write(ROOT, "f", "x");
        fs.chmod(ino, 06755);

        assertThat(fs.clearSetIdBits(ino)).isTrue();

        assertThat(fs.stat(ino).mode()).isEqualTo(0755);
    }

    @Test
    void clearingSetIdBitsKeepsTheSetgidOfAFileItsGroupCannotExecute() throws IOException {
        long ino = write(ROOT, "f", "x");
        fs.chmod(ino, 06644); // set-group-ID without group execute marks mandatory locking

        assertThat(fs.clearSetIdBits(ino)).isTrue();

        assertThat(fs.stat(ino).mode()).isEqualTo(02644);
    }

    @Test
    void clearingSetIdBitsLeavesADirectoryAlone() throws IOException {
        long dir = fs.mkdir(ROOT, "d", 02775, USER).ino();

        assertThat(fs.clearSetIdBits(dir)).isFalse();

        assertThat(fs.stat(dir).mode()).isEqualTo(02775);
    }

    @Test
    void clearingSetIdBitsOfAFileWithoutThemChangesNothing() throws IOException {
        long ino = write(ROOT, "f", "x");
        Inode before = fs.stat(ino);

        assertThat(fs.clearSetIdBits(ino)).isFalse();

        assertThat(fs.stat(ino)).isEqualTo(before); // ctime too: nothing was written
    }

    @Test
    void readdirPagesAfterTheLastNameSeen() throws IOException {
        long dir = fs.mkdir(ROOT, "d", 0755, USER).ino();
        for (String name : List.of("a", "b", "c", "d", "e")) {
            write(dir, name, name);
        }

        assertThat(names(fs.readdir(dir, null, 2))).containsExactly("a", "b");
        assertThat(names(fs.readdir(dir, "b", 2))).containsExactly("c", "d");
        assertThat(names(fs.readdir(dir, "d", 2))).containsExactly("e");
    }

    @Test
    void readdirOfTheRootLeavesOutTheReservedDirectoryAndStillFillsThePage() throws IOException {
        write(ROOT, "a", "a");
        write(ROOT, "b", "b");
        write(ROOT, "c", "c");

        assertThat(names(fs.readdir(ROOT, null, 2))).containsExactly("a", "b"); // ".strata" sorts first
    }

    @Test
    void readdirOfAFileIsEnotdir() throws IOException {
        long file = write(ROOT, "f", "x");

        assertErrno(() -> fs.readdir(file, null, 10), FsError.ENOTDIR);
    }

    /** Creates {@code name} in {@code dir} holding {@code text}; returns its inode number. */
    private long write(long dir, String name, String text) throws IOException {
        StrataFileSystem.Created created = fs.create(dir, name, 0644, O_WRONLY, USER);
        fs.write(created.fh(), utf8(text), 0);
        fs.release(created.fh());
        return created.inode().ino();
    }

    private String read(long fh) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        fs.read(fh, buffer, 0);
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    private List<Path> regularFilesInTheSource() throws IOException {
        try (var files = Files.walk(source)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static List<String> names(List<Dentry> entries) {
        return entries.stream().map(Dentry::name).toList();
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertErrno(ThrowingCall call, FsError expected) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(FsException.class,
                e -> assertThat(e.error()).isEqualTo(expected));
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws IOException;
    }
}
