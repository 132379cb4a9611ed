package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Everything a volume holds survives an unmount and a mount over the same source and metastore
 * file: content, modes, owners, nanosecond times, hard links, symlinks, xattrs, directories.
 *
 * <p>The tree is built and snapshotted once, then the volume is remounted; each test checks one
 * kind of thing against fixed expectations, and one compares the whole before/after snapshot.
 */
class PersistenceTest {
    private static final int S_IFMT = 0170000;
    private static final Instant MTIME = Instant.ofEpochSecond(1_600_000_000L, 123_456_789);
    private static final Instant ATIME = Instant.ofEpochSecond(1_500_000_000L, 987_654_321);
    private static final Instant DIR_MTIME = Instant.ofEpochSecond(1_400_000_000L, 1);

    @TempDir
    static Path base;
    static MountedVolume volume;
    static Map<String, String> contentBefore;
    static Map<String, String> attributesBefore;
    static Object inodeBefore;

    @BeforeAll
    static void buildRemount() throws IOException {
        volume = MountedVolume.under(base).mount();
        Path root = volume.mountPoint();

        Files.createDirectories(root.resolve("data"));
        Files.write(root.resolve("data/empty"), new byte[0]);
        Files.writeString(root.resolve("data/small.txt"), "small\n");
        Files.write(root.resolve("data/big.bin"), Bytes.random(1, (1 << 20) + 3));

        Files.createDirectories(root.resolve("modes/private"));
        Files.createFile(root.resolve("modes/f0640"));
        Files.setPosixFilePermissions(root.resolve("modes/f0640"), PosixFilePermissions.fromString("rw-r-----"));
        Files.createFile(root.resolve("modes/setuid"));
        Files.setAttribute(root.resolve("modes/setuid"), "unix:mode", 04755);
        Files.setPosixFilePermissions(root.resolve("modes/private"), PosixFilePermissions.fromString("rwx------"));

        Files.createDirectories(root.resolve("owners/dir"));
        Files.writeString(root.resolve("owners/owned"), "owned");
        for (Path p : List.of(root.resolve("owners/owned"), root.resolve("owners/dir"))) {
            Files.setAttribute(p, "unix:uid", 1234);
            Files.setAttribute(p, "unix:gid", 5678);
        }

        Files.createDirectories(root.resolve("times/dir"));
        Files.writeString(root.resolve("times/f"), "timed");
        Files.setLastModifiedTime(root.resolve("times/f"), FileTime.from(MTIME));
        Files.setAttribute(root.resolve("times/f"), "basic:lastAccessTime", FileTime.from(ATIME));
        Files.setLastModifiedTime(root.resolve("times/dir"), FileTime.from(DIR_MTIME));

        Files.createDirectories(root.resolve("links/sub"));
        Files.writeString(root.resolve("links/orig"), "linked");
        Files.createLink(root.resolve("links/hard"), root.resolve("links/orig"));
        Files.createLink(root.resolve("links/sub/hard2"), root.resolve("links/orig"));
        inodeBefore = Files.getAttribute(root.resolve("links/orig"), "unix:ino");

        Files.createDirectories(root.resolve("symlinks"));
        Files.createSymbolicLink(root.resolve("symlinks/rel"), Path.of("../data/small.txt"));
        Files.createSymbolicLink(root.resolve("symlinks/abs"), Path.of("/nowhere/at/all"));
        Files.createSymbolicLink(root.resolve("symlinks/dir"), Path.of("../data"));

        Files.createDirectories(root.resolve("xattrs/dir"));
        Files.createFile(root.resolve("xattrs/f"));
        UserDefinedFileAttributeView view = xattrs(root.resolve("xattrs/f"));
        view.write("text", StandardCharsets.UTF_8.encode("value"));
        view.write("binary", ByteBuffer.wrap(new byte[] {0, (byte) 0xff, 0x10}));
        xattrs(root.resolve("xattrs/dir")).write("on-dir", StandardCharsets.UTF_8.encode("yes"));

        Files.createDirectories(root.resolve("nested/a/b/c/empty"));
        Files.writeString(root.resolve("nested/a/b/c/deep.txt"), "deep");

        // Each name of a hard link is its own kernel inode (libfuse2's high-level API): let the
        // old name's cached link count expire (attr_timeout) so the snapshot shows the stored one.
        Poll.until("link count of links/orig", 3, java.time.Duration.ofSeconds(3),
                () -> (int) Files.getAttribute(root.resolve("links/orig"), "unix:nlink"));
        contentBefore = contents(root);
        attributesBefore = attributes(root);
        volume.remount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (volume != null) {
            volume.close();
        }
    }

    private static Path path(String relative) {
        return volume.path(relative);
    }

    private static UserDefinedFileAttributeView xattrs(Path path) {
        return Files.getFileAttributeView(path, UserDefinedFileAttributeView.class);
    }

    @Test
    void everyAttributeOfTheTreeIsUnchanged() throws IOException {
        Map<String, String> after = attributes(volume.mountPoint());
        assertEquals(attributesBefore.keySet(), after.keySet());
        attributesBefore.forEach((name, before) -> assertEquals(before, after.get(name), name));
        assertTrue(attributesBefore.size() >= 30, "snapshot too small: " + attributesBefore.keySet());
    }

    @Test
    void contentIsUnchanged() throws IOException {
        assertEquals(contentBefore, contents(volume.mountPoint()));
        assertArrayEquals(Bytes.random(1, (1 << 20) + 3), Files.readAllBytes(path("data/big.bin")));
        assertEquals("small\n", Files.readString(path("data/small.txt")));
        assertEquals(0, Files.size(path("data/empty")));
        assertEquals("deep", Files.readString(path("nested/a/b/c/deep.txt")));
    }

    @Test
    void modesAreUnchanged() throws IOException {
        assertEquals(0100640, mode(path("modes/f0640")));
        assertEquals(0104755, mode(path("modes/setuid")));
        assertEquals(0040700, mode(path("modes/private")));
    }

    @Test
    void ownersAreUnchanged() throws IOException {
        for (String name : List.of("owners/owned", "owners/dir")) {
            assertEquals(1234, (int) Files.getAttribute(path(name), "unix:uid"), name);
            assertEquals(5678, (int) Files.getAttribute(path(name), "unix:gid"), name);
        }
        assertEquals(0, (int) Files.getAttribute(path("data/small.txt"), "unix:uid"));
    }

    @Test
    void nanosecondTimesAreUnchanged() throws IOException {
        assertEquals(MTIME, Files.getLastModifiedTime(path("times/f")).toInstant());
        assertEquals(ATIME, ((FileTime) Files.getAttribute(path("times/f"), "basic:lastAccessTime")).toInstant());
        assertEquals(DIR_MTIME, Files.getLastModifiedTime(path("times/dir")).toInstant());
    }

    @Test
    void hardLinksStillShareOneInode() throws IOException {
        for (String name : List.of("links/orig", "links/hard", "links/sub/hard2")) {
            assertEquals(inodeBefore, Files.getAttribute(path(name), "unix:ino"), name);
            assertEquals(3, (int) Files.getAttribute(path(name), "unix:nlink"), name);
            assertEquals("linked", Files.readString(path(name)), name);
        }
    }

    @Test
    void symlinksKeepTheirTargets() throws IOException {
        assertEquals(Path.of("../data/small.txt"), Files.readSymbolicLink(path("symlinks/rel")));
        assertEquals(Path.of("/nowhere/at/all"), Files.readSymbolicLink(path("symlinks/abs")));
        assertEquals("small\n", Files.readString(path("symlinks/rel")));
        assertTrue(Files.isDirectory(path("symlinks/dir")));
        assertFalse(Files.exists(path("symlinks/abs")));
        assertEquals(0120000, mode(path("symlinks/rel")) & S_IFMT);
    }

    @Test
    void xattrsAreUnchanged() throws IOException {
        UserDefinedFileAttributeView view = xattrs(path("xattrs/f"));
        assertEquals(List.of("binary", "text"), view.list().stream().sorted().toList());
        assertEquals("value", xattr(path("xattrs/f"), "text"));
        ByteBuffer binary = ByteBuffer.allocate(view.size("binary"));
        view.read("binary", binary);
        assertArrayEquals(new byte[] {0, (byte) 0xff, 0x10}, binary.array());
        assertEquals("yes", xattr(path("xattrs/dir"), "on-dir"));
    }

    @Test
    void directoriesAndTheirEntriesAreUnchanged() throws IOException {
        assertEquals(List.of("data", "links", "modes", "nested", "owners", "symlinks", "times", "xattrs"),
                MountedVolume.names(volume.mountPoint()));
        assertEquals(List.of("deep.txt", "empty"), MountedVolume.names(path("nested/a/b/c")));
        assertEquals(List.of(), MountedVolume.names(path("nested/a/b/c/empty")));
        assertEquals(List.of("hard", "orig", "sub"), MountedVolume.names(path("links")));
        assertTrue(Files.isDirectory(volume.sourcePath("nested/a/b/c/empty")));
        assertEquals("deep", Files.readString(volume.sourcePath("nested/a/b/c/deep.txt")));
    }

    private static int mode(Path path) throws IOException {
        return (int) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    }

    private static String xattr(Path path, String name) throws IOException {
        UserDefinedFileAttributeView view = xattrs(path);
        ByteBuffer buffer = ByteBuffer.allocate(view.size(name));
        view.read(name, buffer);
        return new String(buffer.array(), StandardCharsets.UTF_8);
    }

    /** Relative path → SHA-256, for every regular file under {@code root}. */
    private static Map<String, String> contents(Path root) throws IOException {
        Map<String, String> contents = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.toList()) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    contents.put(root.relativize(p).toString(), Bytes.sha256(p));
                }
            }
        }
        return contents;
    }

    /**
     * Relative path → every attribute stat(2) reports except the device (a new mount is a new
     * device), the symlink target and the xattrs, for every entry under {@code root} and root itself.
     */
    private static Map<String, String> attributes(Path root) throws IOException {
        Map<String, String> attributes = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.toList()) {
                Map<String, Object> a = Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
                StringBuilder line = new StringBuilder();
                for (String key : List.of("mode", "ino", "nlink", "uid", "gid", "rdev", "size", "lastModifiedTime",
                        "lastAccessTime", "ctime")) {
                    Object value = a.get(key);
                    line.append(key).append('=')
                            .append(value instanceof FileTime t ? t.toInstant().toString() : value).append(' ');
                }
                if (Files.isSymbolicLink(p)) {
                    line.append("target=").append(Files.readSymbolicLink(p));
                } else {
                    UserDefinedFileAttributeView view = xattrs(p);
                    for (String name : view.list().stream().sorted().toList()) {
                        ByteBuffer value = ByteBuffer.allocate(view.size(name));
                        view.read(name, value);
                        line.append("xattr:").append(name).append('=').append(HexFormat.of().formatHex(value.array()))
                                .append(' ');
                    }
                }
                attributes.put(root.relativize(p).toString(), line.toString());
            }
        }
        return attributes;
    }
}
