package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each POSIX operation through java.nio on a live mount, checked against what the kernel reports
 * back and against the source directory. One mount for the class; each test works in a directory
 * named after itself.
 */
class PosixOperationsTest {
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;

    @TempDir
    static Path base;
    static MountedVolume volume;

    private Path dir;

    @BeforeAll
    static void mount() throws IOException {
        volume = MountedVolume.under(base);
        // Present in the source before the mount: listed lazily on first access.
        Files.createDirectories(volume.sourcePath("preexisting/nested"));
        Files.createDirectories(volume.sourcePath("preexisting/emptydir"));
        Files.writeString(volume.sourcePath("preexisting/hello.txt"), "hello from the source\n");
        Files.write(volume.sourcePath("preexisting/nested/data.bin"), Bytes.random(7, 100_000));
        Files.createDirectories(volume.sourcePath("preexisting-large"));
        for (int i = 0; i < 2500; i++) {
            Files.writeString(volume.sourcePath(String.format("preexisting-large/entry-%04d", i)), "entry " + i);
        }
        volume.mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (volume != null) {
            volume.close();
        }
    }

    @BeforeEach
    void testDirectory(TestInfo test) throws IOException {
        dir = volume.dir(test.getTestMethod().orElseThrow().getName());
    }

    @Test
    void statReportsTypeSizeModeOwnerAndLinks() throws IOException {
        Path file = dir.resolve("f");
        Files.write(file, new byte[10]);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

        PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class);
        assertTrue(attrs.isRegularFile());
        assertEquals(10, attrs.size());
        assertEquals("rw-r-----", PosixFilePermissions.toString(attrs.permissions()));
        assertEquals(S_IFREG | 0640, (int) Files.getAttribute(file, "unix:mode"));
        assertEquals(0, (int) Files.getAttribute(file, "unix:uid"));
        assertEquals(1, (int) Files.getAttribute(file, "unix:nlink"));
        assertEquals(S_IFDIR, (int) Files.getAttribute(dir, "unix:mode") & S_IFMT);
        assertTrue(Files.readAttributes(volume.mountPoint(), PosixFileAttributes.class).isDirectory());
    }

    @Test
    void readdirListsEveryEntryOfADirectoryOf2000Files() throws IOException {
        List<String> expected = IntStream.range(0, 2000).mapToObj(i -> String.format("file-%04d", i)).toList();
        for (String name : expected) {
            Files.createFile(dir.resolve(name));
        }
        Files.createDirectory(dir.resolve("zz-subdir"));
        List<String> withDir = new ArrayList<>(expected);
        withDir.add("zz-subdir");

        assertEquals(withDir, MountedVolume.names(dir));
        assertEquals(withDir, MountedVolume.names(volume.inSource(dir)));
        assertTrue(Files.isDirectory(dir.resolve("zz-subdir"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isRegularFile(dir.resolve("file-1999"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void mkdirCreatesAnEmptyDirectory() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Files.createDirectories(dir.resolve("a/b/c"));

        assertTrue(Files.isDirectory(sub));
        assertEquals(List.of(), MountedVolume.names(sub));
        assertTrue(Files.isDirectory(dir.resolve("a/b/c")));
        assertEquals(List.of("a", "sub"), MountedVolume.names(dir));
        assertEquals(2, (int) Files.getAttribute(sub, "unix:nlink"), "an empty directory has 2 links");
    }

    @Test
    void rmdirRemovesAnEmptyDirectory() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Files.delete(sub);

        assertFalse(Files.exists(sub, LinkOption.NOFOLLOW_LINKS));
        assertEquals(List.of(), MountedVolume.names(dir));
        assertFalse(Files.exists(volume.inSource(sub), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void createdFileReadsBackTheBytesWritten() throws IOException {
        byte[] data = Bytes.random(1, 300_000);
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            channel.write(ByteBuffer.wrap(data));
            ByteBuffer back = ByteBuffer.allocate(data.length);
            while (back.hasRemaining() && channel.read(back, back.position()) > 0) {
                // reads through the same descriptor, before close
            }
            assertArrayEquals(data, back.array());
        }
        assertArrayEquals(data, Files.readAllBytes(file));
        assertEquals(data.length, Files.size(file));
    }

    @Test
    void writesAtRandomOffsetsAndAppendsReadBackAsWritten() throws IOException {
        Random random = new Random(42);
        byte[] model = new byte[0];
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 200; i++) {
                int offset = random.nextInt(600_000);
                byte[] chunk = Bytes.random(i, 1 + random.nextInt(20_000));
                channel.write(ByteBuffer.wrap(chunk), offset);
                model = place(model, chunk, offset);
            }
        }
        for (int i = 0; i < 50; i++) {
            byte[] chunk = Bytes.random(1000 + i, 1 + random.nextInt(10_000));
            Files.write(file, chunk, StandardOpenOption.APPEND);
            model = place(model, chunk, model.length);
        }
        assertEquals(model.length, Files.size(file));
        assertArrayEquals(model, Files.readAllBytes(file));
        assertArrayEquals(model, Files.readAllBytes(volume.inSource(file)));
    }

    private static byte[] place(byte[] model, byte[] chunk, int offset) {
        byte[] result = model.length >= offset + chunk.length ? model : Arrays.copyOf(model, offset + chunk.length);
        System.arraycopy(chunk, 0, result, offset, chunk.length);
        return result;
    }

    @Test
    void fsyncSucceedsAndLeavesTheDataInTheSource() throws IOException {
        byte[] data = Bytes.random(3, 1 << 20);
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(data));
            channel.force(true);
            channel.force(false);
            assertArrayEquals(data, Files.readAllBytes(volume.inSource(file)), "source after fsync");
            assertEquals(data.length, Files.size(file), "size after fsync, file still open");
        }
    }

    @Test
    void closeRecordsTheSizeInTheMetastore() throws IOException {
        Path file = dir.resolve("f");
        Files.write(file, Bytes.random(4, 12_345));
        String relative = "/" + volume.mountPoint().relativize(file);

        assertEquals(12_345, volume.strataMount().fileSystem().getattr(relative).size());
    }

    @Test
    void unlinkRemovesTheNameFromTheMountAndTheSource() throws IOException {
        Path file = dir.resolve("f");
        Files.writeString(file, "bye");
        Files.delete(file);

        assertFalse(Files.exists(file, LinkOption.NOFOLLOW_LINKS));
        assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(file));
        assertEquals(List.of(), MountedVolume.names(dir));
        assertFalse(Files.exists(volume.inSource(file), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void renameReplacesAnExistingFile() throws IOException {
        Path from = dir.resolve("from");
        Path to = dir.resolve("to");
        Files.writeString(from, "new content");
        Files.writeString(to, "old content that is longer");
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);

        assertEquals("new content", Files.readString(to));
        assertFalse(Files.exists(from));
        assertEquals(List.of("to"), MountedVolume.names(dir));
        assertEquals("new content", Files.readString(volume.inSource(to)));
        assertEquals(List.of("to"), MountedVolume.names(volume.inSource(dir)));
    }

    @Test
    void renameMovesANonEmptyDirectoryWithItsContents() throws IOException {
        Path tree = Files.createDirectories(dir.resolve("tree/sub"));
        Files.writeString(dir.resolve("tree/a.txt"), "a");
        Files.writeString(tree.resolve("b.txt"), "b");
        Path moved = dir.resolve("moved");
        Files.move(dir.resolve("tree"), moved, StandardCopyOption.ATOMIC_MOVE);

        assertFalse(Files.exists(dir.resolve("tree")));
        assertEquals("a", Files.readString(moved.resolve("a.txt")));
        assertEquals("b", Files.readString(moved.resolve("sub/b.txt")));
        assertEquals(List.of("a.txt", "sub"), MountedVolume.names(moved));
        assertEquals("b", Files.readString(volume.inSource(moved.resolve("sub/b.txt"))));
        assertFalse(Files.exists(volume.inSource(dir.resolve("tree"))));
    }

    @Test
    void renameOfAnOpenFileKeepsWritesBeforeAndAfterIt() throws IOException {
        Path from = dir.resolve("from");
        Path to = dir.resolve("to");
        byte[] first = Bytes.random(21, 70_000);
        byte[] second = Bytes.random(22, 30_000);
        try (FileChannel channel = FileChannel.open(from, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(first));
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            channel.write(ByteBuffer.wrap(second));
            channel.force(true);
        }
        byte[] expected = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, expected, first.length, second.length);
        assertArrayEquals(expected, Files.readAllBytes(to));
        assertArrayEquals(expected, Files.readAllBytes(volume.inSource(to)));
        assertEquals(List.of("to"), MountedVolume.names(dir));
    }

    @Test
    void hardLinkSharesTheInodeAndCountsTwoLinks() throws IOException {
        Path file = dir.resolve("f");
        Path link = dir.resolve("g");
        Files.writeString(file, "shared");
        Files.createLink(link, file);

        assertEquals(Files.getAttribute(file, "unix:ino"), Files.getAttribute(link, "unix:ino"));
        assertEquals(2, (int) Files.getAttribute(link, "unix:nlink"));
        // libfuse2's high-level API gives each name its own kernel inode: the old name's cached
        // link count is refreshed within attr_timeout (1 s)
        Poll.until("link count of the old name", 2, Duration.ofSeconds(3),
                () -> (int) Files.getAttribute(file, "unix:nlink"));
        Files.writeString(link, "changed through the link");
        assertEquals("changed through the link", Files.readString(volume.inSource(file)));
        // libfuse2's high-level API gives each name its own kernel inode, so the other name may
        // show its cached (old) size until attr_timeout (1 s) passes.
        Poll.until("content through the other name", "changed through the link", Duration.ofSeconds(3),
                () -> Files.readString(file));

        Files.delete(file);
        assertEquals(1, (int) Files.getAttribute(link, "unix:nlink"));
        assertEquals("changed through the link", Files.readString(link));
        // the data follows the remaining name in the source
        assertEquals("changed through the link", Files.readString(volume.inSource(link)));
        assertEquals(List.of("g"), MountedVolume.names(volume.inSource(dir)));
    }

    @Test
    void symlinkReadsBackItsTargetAndResolves() throws IOException {
        Path target = dir.resolve("target.txt");
        Files.writeString(target, "pointed at");
        Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("target.txt"));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), Path.of("/no/such/place"));

        assertTrue(Files.isSymbolicLink(link));
        assertEquals(Path.of("target.txt"), Files.readSymbolicLink(link));
        assertEquals("pointed at", Files.readString(link));
        assertEquals(S_IFLNK, (int) Files.getAttribute(link, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT);
        assertEquals(Path.of("/no/such/place"), Files.readSymbolicLink(dangling));
        assertFalse(Files.exists(dangling));
    }

    @Test
    void chmodChangesThePermissionBits() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx--x-w-"));
        assertEquals("rwx--x-w-", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));

        Files.setAttribute(file, "unix:mode", 04751);
        assertEquals(S_IFREG | 04751, (int) Files.getAttribute(file, "unix:mode"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    }

    @Test
    void chownChangesOwnerAndGroup() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        Files.setAttribute(file, "unix:uid", 1234);
        Files.setAttribute(file, "unix:gid", 5678);

        assertEquals(1234, (int) Files.getAttribute(file, "unix:uid"));
        assertEquals(5678, (int) Files.getAttribute(file, "unix:gid"));
    }

    @Test
    void utimensKeepsNanosecondTimestamps() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        Instant modified = Instant.ofEpochSecond(1_600_000_000L, 123_456_789);
        Instant accessed = Instant.ofEpochSecond(1_500_000_000L, 987_654_321);
        Files.setLastModifiedTime(file, FileTime.from(modified));
        Files.setAttribute(file, "basic:lastAccessTime", FileTime.from(accessed));

        assertEquals(modified, Files.getLastModifiedTime(file).toInstant());
        assertEquals(accessed, ((FileTime) Files.getAttribute(file, "basic:lastAccessTime")).toInstant());
    }

    @Test
    void utimensOnAnOpenWrittenFileSurvivesItsClose() throws IOException {
        Path file = dir.resolve("f");
        Instant modified = Instant.ofEpochSecond(1_234_567_890L, 1);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(Bytes.random(9, 50_000)));
            Files.setLastModifiedTime(file, FileTime.from(modified));
            assertEquals(modified, Files.getLastModifiedTime(file).toInstant(), "while open");
        }
        assertEquals(modified, Files.getLastModifiedTime(file).toInstant(), "after close");
        assertEquals(50_000, Files.size(file));
    }

    @Test
    void aReadOnlyOpenWithTruncEmptiesTheFileAsLinuxDoes() throws IOException {
        Path file = dir.resolve("f");
        Files.writeString(file, "hello");

        assertEquals("OK", Shell.errnoOf("os.close(os.open(a, os.O_RDONLY | os.O_TRUNC))", file));
        assertEquals(0, Files.size(file));
        assertEquals(0, Files.size(volume.inSource(file)));
    }

    @Test
    void aTruncatingOpenOfARunningProgramFailsWithTextFileBusyAndLeavesItWhole() throws Exception {
        Path program = dir.resolve("sleep");
        Files.copy(Path.of("/bin/sleep"), program);
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        Process running = new ProcessBuilder(program.toString(), "60").start();
        try {
            Path exe = Path.of("/proc", Long.toString(running.pid()), "exe");
            Poll.until("the program started from the mount", program.toString(), Duration.ofSeconds(10),
                    () -> Files.readSymbolicLink(exe).toString());

            assertEquals("ETXTBSY", Shell.errnoOf("os.open(a, os.O_RDONLY | os.O_TRUNC)", program));
            assertEquals("ETXTBSY", Shell.errnoOf("os.open(a, os.O_WRONLY | os.O_TRUNC)", program));
            assertTrue(running.isAlive(), "the program still runs");
            assertArrayEquals(Files.readAllBytes(Path.of("/bin/sleep")), Files.readAllBytes(program));
        } finally {
            running.destroyForcibly().waitFor();
        }
        assertEquals("OK", Shell.errnoOf("os.close(os.open(a, os.O_RDONLY | os.O_TRUNC))", program),
                "once the program has ended");
        assertEquals(0, Files.size(program));
    }

    @Test
    void truncateByPathShrinksAndExtends() throws IOException {
        Path file = dir.resolve("f");
        byte[] data = Bytes.random(5, 100_000);
        Files.write(file, data);

        assertEquals("OK", Shell.errnoOf("os.truncate(a, 1000)", file));
        assertEquals(1000, Files.size(file));
        assertArrayEquals(Arrays.copyOf(data, 1000), Files.readAllBytes(file));
        assertEquals("OK", Shell.errnoOf("os.truncate(a, 50000)", file));
        assertEquals(50_000, Files.size(file));
        assertArrayEquals(Arrays.copyOf(data, 1000), Arrays.copyOf(Files.readAllBytes(file), 1000));
        assertArrayEquals(new byte[49_000], Arrays.copyOfRange(Files.readAllBytes(file), 1000, 50_000),
                "extension reads as zeros");
        assertEquals(50_000, Files.size(volume.inSource(file)));
    }

    @Test
    void ftruncateShrinksAndExtendsAnOpenFile() throws IOException {
        Path file = dir.resolve("f");
        byte[] data = Bytes.random(6, 100_000);
        Files.write(file, data);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(777);
            assertEquals(777, Files.size(file), "size while open");
            raf.setLength(300_000);
            raf.seek(299_999);
            raf.write(9);
        }
        byte[] back = Files.readAllBytes(file);
        assertEquals(300_000, back.length);
        assertArrayEquals(Arrays.copyOf(data, 777), Arrays.copyOf(back, 777));
        assertArrayEquals(new byte[300_000 - 777 - 1], Arrays.copyOfRange(back, 777, 299_999));
        assertEquals(9, back[299_999]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(10);
        }
        assertArrayEquals(Arrays.copyOf(data, 10), Files.readAllBytes(file));
    }

    @Test
    void statfsReportsTotalAndUsableSpace() throws IOException {
        FileStore store = Files.getFileStore(dir);
        assertTrue(store.getTotalSpace() > 0, "total " + store.getTotalSpace());
        assertTrue(store.getUsableSpace() > 0, "usable " + store.getUsableSpace());
        assertTrue(store.getUsableSpace() <= store.getTotalSpace());
        assertEquals("fuse.strata", store.type());
        Shell.Result df = Shell.run(dir, "stat", "-f", "-c", "%l %c %d", ".").assertOk();
        String[] fields = df.out().strip().split(" ");
        assertEquals(255, Integer.parseInt(fields[0]), "name max");
        assertTrue(Long.parseLong(fields[1]) > 0 && Long.parseLong(fields[2]) > 0, "inodes: " + df.out());
    }

    @Test
    void xattrsCanBeSetReadListedAndRemoved() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        UserDefinedFileAttributeView view = Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
        byte[] binary = {0, 1, 2, (byte) 0xff, 0};
        view.write("color", StandardCharsets.UTF_8.encode("blue"));
        view.write("binary", ByteBuffer.wrap(binary));
        view.write("empty", ByteBuffer.allocate(0));

        assertEquals(List.of("binary", "color", "empty"), view.list().stream().sorted().toList());
        assertEquals("blue", read(view, "color"));
        ByteBuffer back = ByteBuffer.allocate(view.size("binary"));
        view.read("binary", back);
        assertArrayEquals(binary, back.array());
        assertEquals(0, view.size("empty"));

        view.write("color", StandardCharsets.UTF_8.encode("green"));
        assertEquals("green", read(view, "color"));
        view.delete("color");
        assertEquals(List.of("binary", "empty"), view.list().stream().sorted().toList());
        assertThrows(IOException.class, () -> view.size("color"));
    }

    private static String read(UserDefinedFileAttributeView view, String name) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(view.size(name));
        view.read(name, buffer);
        return new String(buffer.array(), StandardCharsets.UTF_8);
    }

    @Test
    void accessFollowsThePermissionBits() throws IOException {
        Path plain = Files.createFile(dir.resolve("plain"));
        Files.setPosixFilePermissions(plain, PosixFilePermissions.fromString("rw-r--r--"));
        Path script = Files.createFile(dir.resolve("script"));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertTrue(Files.isReadable(plain));
        assertTrue(Files.isWritable(plain));
        assertFalse(Files.isExecutable(plain), "root may not execute a file without x bits");
        assertTrue(Files.isExecutable(script));
        assertTrue(Files.isExecutable(dir));
        assertEquals("EACCES", Shell.errnoOf("os.execv(a, [a])", plain));
    }

    @Test
    void filesCreatedThroughTheMountAppearInTheSource() throws IOException {
        Files.createDirectories(dir.resolve("a/b"));
        byte[] data = Bytes.random(8, 65_537);
        Files.write(dir.resolve("a/b/c.bin"), data);
        Files.writeString(dir.resolve("top.txt"), "top");
        Files.createDirectory(dir.resolve("empty"));

        Path src = volume.inSource(dir);
        assertTrue(Files.isDirectory(src.resolve("a/b"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isDirectory(src.resolve("empty"), LinkOption.NOFOLLOW_LINKS));
        assertArrayEquals(data, Files.readAllBytes(src.resolve("a/b/c.bin")));
        assertEquals("top", Files.readString(src.resolve("top.txt")));
        assertEquals(List.of("a", "empty", "top.txt"), MountedVolume.names(src));
    }

    @Test
    void largeDirectoryInTheSourceIsListedCompletely() throws IOException {
        Path large = volume.path("preexisting-large");
        List<String> expected = IntStream.range(0, 2500).mapToObj(i -> String.format("entry-%04d", i)).toList();
        assertEquals(expected, MountedVolume.names(large));
        assertEquals("entry 2499", Files.readString(large.resolve("entry-2499")));
        assertEquals("entry 0", Files.readString(large.resolve("entry-0000")));
    }

    @Test
    void filesInTheSourceBeforeMountAppearWithTheirContent() throws IOException {
        Path pre = volume.path("preexisting");
        assertEquals(List.of("emptydir", "hello.txt", "nested"), MountedVolume.names(pre));
        assertEquals("hello from the source\n", Files.readString(pre.resolve("hello.txt")));
        assertArrayEquals(Bytes.random(7, 100_000), Files.readAllBytes(pre.resolve("nested/data.bin")));
        assertEquals(100_000, Files.size(pre.resolve("nested/data.bin")));
        assertTrue(Files.isDirectory(pre.resolve("emptydir")));
        assertEquals(List.of(), MountedVolume.names(pre.resolve("emptydir")));
        assertEquals(List.of("data.bin"),
                MountedVolume.names(pre.resolve("nested")).stream().collect(Collectors.toList()));
    }
}
