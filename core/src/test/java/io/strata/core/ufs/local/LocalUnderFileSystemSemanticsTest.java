package io.strata.core.ufs.local;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What only the local under storage does: path checks, what it exposes of the source, attributes. */
class LocalUnderFileSystemSemanticsTest {
    @TempDir
    Path root;

    @TempDir
    Path outside;

    private LocalUnderFileSystem ufs;

    @BeforeEach
    void open() throws IOException {
        ufs = new LocalUnderFileSystem(root);
    }

    @AfterEach
    void close() {
        ufs.close();
    }

    @Test
    void rootMustExist() {
        FsException e = assertThrows(FsException.class, () -> new LocalUnderFileSystem(root.resolve("missing")));
        assertEquals(FsError.ENOENT, e.error());
        assertTrue(e.getMessage().contains(root.resolve("missing").toString()), e.getMessage());
    }

    @Test
    void rootMustBeADirectory() throws IOException {
        Path file = Files.writeString(root.resolve("file"), "x");
        FsException e = assertThrows(FsException.class, () -> new LocalUnderFileSystem(file));
        assertEquals(FsError.ENOTDIR, e.error());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void uriIsTheRootsFileUriWithoutTrailingSlash() throws IOException {
        Path dir = Files.createDirectory(root.resolve("with space%"));
        URI uri = new LocalUnderFileSystem(dir).uri();
        assertEquals("file", uri.getScheme());
        assertTrue(uri.toString().endsWith("/with%20space%25"), uri.toString());
        assertEquals(dir, Path.of(uri));
    }

    @Test
    void pathsThatLeaveTheRootOrAreNotCanonicalAreRejected() {
        for (String bad : List.of("..", "../x", "a/../../x", "a/..", "/etc/passwd", "/", "a//b", "a/", "./a", "a/.")) {
            assertRejected(bad, () -> ufs.status(bad));
            assertRejected(bad, () -> ufs.list(bad, status -> {}));
            assertRejected(bad, () -> ufs.open(bad, false));
            assertRejected(bad, () -> ufs.create(bad));
            assertRejected(bad, () -> ufs.mkdir(bad));
            assertRejected(bad, () -> ufs.deleteFile(bad));
            assertRejected(bad, () -> ufs.deleteDirectory(bad));
            assertRejected(bad, () -> ufs.rename(bad, "x"));
            assertRejected(bad, () -> ufs.rename("x", bad));
        }
    }

    @Test
    void namesWithDotsThatAreNotDotOrDotDotAreFine() throws IOException {
        for (String name : List.of("...", ".hidden", "..x", "x..")) {
            write(name, "ok");
            assertEquals(2, ufs.status(name).orElseThrow().size(), name);
        }
    }

    @Test
    void symbolicLinksInTheSourceAreNotExposed() throws IOException {
        Files.writeString(root.resolve("real"), "real content");
        Files.createDirectory(root.resolve("realdir"));
        Files.writeString(outside.resolve("secret"), "outside the root");
        Files.createSymbolicLink(root.resolve("link"), root.resolve("real"));
        Files.createSymbolicLink(root.resolve("dirlink"), root.resolve("realdir"));
        Files.createSymbolicLink(root.resolve("escape"), outside);
        Files.createSymbolicLink(root.resolve("dangling"), root.resolve("nowhere"));

        assertEquals(Set.of("real", "realdir"), names(""));
        for (String link : List.of("link", "dirlink", "escape", "dangling")) {
            assertEquals(Optional.empty(), ufs.status(link), link);
            assertError(FsError.ENOENT, () -> ufs.open(link, false));
            assertError(FsError.ENOENT, () -> ufs.open(link, true));
            assertError(FsError.ENOENT, () -> ufs.list(link, status -> {}));
            assertError(FsError.ENOENT, () -> ufs.rename(link, "renamed"));
            assertError(FsError.EEXIST, () -> ufs.create(link));
            ufs.deleteFile(link);
            ufs.deleteDirectory(link);
            assertTrue(Files.isSymbolicLink(root.resolve(link)), link + " was removed");
        }
        assertEquals("real content", Files.readString(root.resolve("real")));
        assertEquals("outside the root", Files.readString(outside.resolve("secret")));
    }

    @Test
    void specialFilesInTheSourceAreNotExposed() throws IOException {
        Path socket = root.resolve("sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
            write("file", "x");

            assertEquals(Set.of("file"), names(""));
            assertEquals(Optional.empty(), ufs.status("sock"));
            assertError(FsError.ENOENT, () -> ufs.open("sock", false));
        }
    }

    @Test
    void modeIncludesSpecialBitsAndOwnerIsNumeric() throws IOException {
        assumeTrue(root.getFileSystem().supportedFileAttributeViews().contains("unix"));
        Path file = Files.writeString(root.resolve("f"), "x");
        Path dir = Files.createDirectory(root.resolve("d"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Files.setAttribute(dir, "unix:mode", 01750);

        UfsStatus fileStatus = ufs.status("f").orElseThrow();
        UfsStatus dirStatus = ufs.status("d").orElseThrow();

        assertEquals(0640, fileStatus.mode());
        assertEquals(01750, dirStatus.mode());
        assertEquals((int) Files.getAttribute(file, "unix:uid"), fileStatus.uid());
        assertEquals((int) Files.getAttribute(file, "unix:gid"), fileStatus.gid());
        assertEquals((int) Files.getAttribute(dir, "unix:uid"), dirStatus.uid());

        Files.setAttribute(file, "unix:mode", 06755);
        assertEquals(06755, ufs.status("f").orElseThrow().mode());
        assertEquals(06755, listed("", "f").mode());
    }

    @Test
    void mtimeIsTheFilesModificationTimeInNanosecondsAndPartOfTheVersion() throws IOException {
        Path file = Files.writeString(root.resolve("f"), "12345");
        long mtimeNs = 1_600_000_000_123_456_789L;
        Files.setLastModifiedTime(file, FileTime.from(mtimeNs, TimeUnit.NANOSECONDS));
        // Some file systems keep coarser times; compare with what this one stored.
        long stored = Files.getLastModifiedTime(file).to(TimeUnit.NANOSECONDS);

        UfsStatus status = ufs.status("f").orElseThrow();

        assertEquals(stored, status.mtimeNs());
        assertEquals("5-" + stored, status.version());
        try (UfsFile handle = ufs.open("f", false)) {
            assertEquals(status.version(), handle.version());
        }
    }

    @Test
    void writesChangeTheVersionEvenWhenTheClockDoesNotAdvance() throws IOException {
        Path file = Files.writeString(root.resolve("f"), "hello");
        // An mtime ahead of the clock: the write below stamps an earlier time, as a coarse clock could.
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(3600)));
        String before = ufs.status("f").orElseThrow().version();

        String during;
        try (UfsFile handle = ufs.open("f", true)) {
            handle.write(ByteBuffer.wrap(bytes("j")), 0);
            during = handle.version();
        }

        String after = ufs.status("f").orElseThrow().version();
        assertNotEquals(before, during);
        assertEquals(during, after);
        assertTrue(ufs.status("f").orElseThrow().mtimeNs() > Long.parseLong(before.substring(2)));
    }

    @Test
    void closingAfterWritesChangesTheVersionWithoutAskingForIt() throws IOException {
        Path file = Files.writeString(root.resolve("f"), "hello");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(3600)));
        String before = ufs.status("f").orElseThrow().version();

        try (UfsFile handle = ufs.open("f", true)) {
            handle.write(ByteBuffer.wrap(bytes("j")), 0);
        }

        assertNotEquals(before, ufs.status("f").orElseThrow().version());
    }

    @Test
    void readOnlyHandleRejectsWritesWithEbadf() throws IOException {
        write("f", "data");
        try (UfsFile handle = ufs.open("f", false)) {
            assertError(FsError.EBADF, () -> handle.write(ByteBuffer.wrap(bytes("x")), 0));
            assertError(FsError.EBADF, () -> handle.truncate(0));
        }
        assertEquals("data", Files.readString(root.resolve("f")));
    }

    @Test
    void fileOperationsOnADirectoryFailWithEisdir() throws IOException {
        ufs.mkdir("d");
        assertError(FsError.EISDIR, () -> ufs.open("d", false));
        assertError(FsError.EISDIR, () -> ufs.create("d"));
        assertError(FsError.EISDIR, () -> ufs.deleteFile("d"));
        assertError(FsError.EISDIR, () -> ufs.create(""));
    }

    @Test
    void directoryOperationsOnAFileFailWithEnotdir() throws IOException {
        write("f", "x");
        assertError(FsError.ENOTDIR, () -> ufs.list("f", status -> {}));
        assertError(FsError.ENOTDIR, () -> ufs.deleteDirectory("f"));
        assertError(FsError.ENOTDIR, () -> ufs.mkdir("f/sub"));
        assertError(FsError.ENOTDIR, () -> ufs.create("f/sub"));
        assertEquals(Optional.empty(), ufs.status("f/sub"));
    }

    @Test
    void mkdirOverAFileFailsWithEexist() throws IOException {
        write("f", "x");
        assertError(FsError.EEXIST, () -> ufs.mkdir("f"));
    }

    @Test
    void renameOntoANonEmptyDirectoryFailsWithEnotempty() throws IOException {
        ufs.mkdir("a");
        ufs.mkdir("b");
        write("b/f", "x");
        assertError(FsError.ENOTEMPTY, () -> ufs.rename("a", "b"));
    }

    @Test
    void renameOfADirectoryIntoItselfFailsWithEinval() throws IOException {
        ufs.mkdir("a");
        assertError(FsError.EINVAL, () -> ufs.rename("a", "a/b"));
    }

    @Test
    void renameToItselfIsANoOp() throws IOException {
        write("f", "x");
        ufs.rename("f", "f");
        assertEquals("x", Files.readString(root.resolve("f")));
    }

    @Test
    void theRootCannotBeDeletedOrRenamed() {
        assertThrows(IllegalArgumentException.class, () -> ufs.deleteDirectory(""));
        assertThrows(IllegalArgumentException.class, () -> ufs.rename("", "x"));
        assertTrue(Files.isDirectory(root));
    }

    @Test
    void capacityIsTheFileStores() throws IOException {
        FileStore store = Files.getFileStore(root);
        UnderFileSystem.Capacity capacity = ufs.capacity().orElseThrow();
        assertEquals(store.getTotalSpace(), capacity.totalBytes());
        assertTrue(capacity.freeBytes() > 0);
    }

    @Test
    void nonAsciiNamesRoundTrip() throws IOException {
        String name = "répertoire-日本";
        assumeTrue(StandardCharsets.UTF_8.name().equalsIgnoreCase(System.getProperty("sun.jnu.encoding")),
                "file names are not UTF-8 in this locale");
        ufs.mkdir(name);
        write(name + "/ünïcode", "x");
        assertEquals(Set.of("ünïcode"), names(name));
        assertTrue(Files.exists(root.resolve(name).resolve("ünïcode")));
    }

    private void write(String path, String content) throws IOException {
        try (UfsFile file = ufs.create(path)) {
            file.write(ByteBuffer.wrap(bytes(content)), 0);
        }
    }

    private Set<String> names(String dir) throws IOException {
        Set<String> names = new TreeSet<>();
        ufs.list(dir, status -> names.add(status.name()));
        return names;
    }

    private UfsStatus listed(String dir, String name) throws IOException {
        List<UfsStatus> found = new ArrayList<>();
        ufs.list(dir, status -> {
            if (status.name().equals(name)) {
                found.add(status);
            }
        });
        assertEquals(1, found.size(), name);
        return found.get(0);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertRejected(String path, Executable executable) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, executable, path);
        assertTrue(e.getMessage().contains(path), e.getMessage());
    }

    private static void assertError(FsError expected, Executable executable) {
        FsException e = assertThrows(FsException.class, executable);
        assertEquals(expected, e.error(), e.getMessage());
    }
}
