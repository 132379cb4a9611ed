package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's mistakes come back as their own errno, never as EIO. Observed with Python's
 * {@code os} module (one system call, its errno by name) and where useful the shell or java.nio.
 * The mount allows other users, for the permission test.
 */
class ErrnoTest {
    @TempDir
    static Path base;
    @TempDir
    static Path outside;
    static MountedVolume volume;

    private Path dir;

    @BeforeAll
    static void mount() throws IOException {
        volume = MountedVolume.under(base, "allow_other").mount();
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
    void missingNameIsENOENT() {
        Path missing = dir.resolve("missing");
        assertEquals("ENOENT", Shell.errnoOf("os.stat(a)", missing));
        assertEquals("ENOENT", Shell.errnoOf("os.open(a, os.O_RDONLY)", missing));
        assertEquals("ENOENT", Shell.errnoOf("os.unlink(a)", missing));
        assertEquals("ENOENT", Shell.errnoOf("os.rename(a, b)", missing, dir.resolve("other")));
        assertEquals("ENOENT", Shell.errnoOf("os.open(a, os.O_CREAT | os.O_WRONLY)", dir.resolve("no/such/file")));
        assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(missing));
    }

    @Test
    void mkdirOfAnExistingNameIsEEXIST() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Files.createFile(dir.resolve("file"));
        assertEquals("EEXIST", Shell.errnoOf("os.mkdir(a)", sub));
        assertEquals("EEXIST", Shell.errnoOf("os.mkdir(a)", dir.resolve("file")));
        assertThrows(FileAlreadyExistsException.class, () -> Files.createDirectory(sub));
    }

    @Test
    void exclusiveCreateOfAnExistingFileIsEEXIST() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals("EEXIST", Shell.errnoOf("os.open(a, os.O_CREAT | os.O_EXCL | os.O_WRONLY)", file));
        assertThrows(FileAlreadyExistsException.class, () -> Files.createFile(file));
        assertEquals("EEXIST", Shell.errnoOf("os.link(a, b)", file, file));
        assertEquals("EEXIST", Shell.errnoOf("os.symlink('x', a)", file));
    }

    @Test
    void rmdirOfANonEmptyDirectoryIsENOTEMPTY() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Files.createFile(sub.resolve("child"));
        assertEquals("ENOTEMPTY", Shell.errnoOf("os.rmdir(a)", sub));
        assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(sub));
        assertTrue(Files.exists(sub.resolve("child")));
    }

    @Test
    void renameOverANonEmptyDirectoryIsENOTEMPTY() throws IOException {
        Path from = Files.createDirectory(dir.resolve("from"));
        Path to = Files.createDirectory(dir.resolve("to"));
        Files.createFile(to.resolve("child"));
        assertEquals("ENOTEMPTY", Shell.errnoOf("os.rename(a, b)", from, to));
        assertTrue(Files.exists(to.resolve("child")));
        assertTrue(Files.isDirectory(from));
    }

    @Test
    void pathThroughAFileIsENOTDIR() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals("ENOTDIR", Shell.errnoOf("os.stat(a)", file.resolve("x")));
        assertEquals("ENOTDIR", Shell.errnoOf("os.mkdir(a)", file.resolve("x")));
        assertEquals("ENOTDIR", Shell.errnoOf("os.open(a, os.O_CREAT | os.O_WRONLY)", file.resolve("x")));
        assertEquals("ENOTDIR", Shell.errnoOf("os.rmdir(a)", file));
        assertEquals("ENOTDIR", Shell.errnoOf("os.listdir(a)", file));
    }

    @Test
    void writingToADirectoryIsEISDIR() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Shell.Result shell = Shell.sh(dir, "echo x > sub");
        assertNotEquals(0, shell.exit());
        assertTrue(shell.err().contains("Is a directory"), shell.describe());
        assertEquals("EISDIR", Shell.errnoOf("os.open(a, os.O_WRONLY)", sub));
        assertEquals("EISDIR", Shell.errnoOf("os.unlink(a)", sub));
    }

    @Test
    void readingAnotherUsersPrivateFileIsEACCES() throws IOException {
        Path secret = dir.resolve("secret");
        Path open = dir.resolve("open");
        Files.writeString(secret, "root only\n");
        Files.writeString(open, "for everyone\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));

        Shell.Result denied = Shell.asNobody("cat", secret.toString());
        assertNotEquals(0, denied.exit(), denied.describe());
        assertTrue(denied.err().contains("Permission denied"), denied.describe());
        // the control: the same user reads a world-readable file in the same directory
        Shell.Result allowed = Shell.asNobody("cat", open.toString()).assertOk();
        assertEquals("for everyone\n", allowed.out());
        Shell.Result write = Shell.asNobody("sh", "-c", "echo x >> " + open);
        assertTrue(write.err().contains("Permission denied"), write.describe());
    }

    @Test
    void renameOutOfTheMountIsEXDEV() throws IOException {
        Path file = dir.resolve("file");
        Files.writeString(file, "stays");
        assertEquals("EXDEV", Shell.errnoOf("os.rename(a, b)", file, outside.resolve("moved")));
        assertThrows(AtomicMoveNotSupportedException.class,
                () -> Files.move(file, outside.resolve("moved"), StandardCopyOption.ATOMIC_MOVE));
        assertEquals("stays", Files.readString(file));
    }

    @Test
    void nameLongerThan255BytesIsENAMETOOLONG() throws IOException {
        Path longest = dir.resolve("n".repeat(255));
        Path tooLong = dir.resolve("n".repeat(256));
        Files.writeString(longest, "fits");
        assertEquals("fits", Files.readString(longest));
        assertEquals("ENAMETOOLONG", Shell.errnoOf("os.open(a, os.O_CREAT | os.O_WRONLY)", tooLong));
        assertEquals("ENAMETOOLONG", Shell.errnoOf("os.mkdir(a)", tooLong));
        assertEquals("ENAMETOOLONG", Shell.errnoOf("os.stat(a)", tooLong));
        assertEquals("ENAMETOOLONG", Shell.errnoOf("os.rename(a, b)", longest, tooLong));
        // 2-byte characters: 128 of them are 256 bytes
        assertEquals("ENAMETOOLONG", Shell.errnoOf("os.mkdir(a)", dir.resolve("é".repeat(128))));
    }

    @Test
    void missingXattrIsENODATA() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals("ENODATA", Shell.errnoOf("os.getxattr(a, 'user.none')", file));
        assertEquals("ENODATA", Shell.errnoOf("os.removexattr(a, 'user.none')", file));
        assertEquals("ENODATA", Shell.errnoOf("os.setxattr(a, 'user.none', b'v', os.XATTR_REPLACE)", file));
        assertEquals("OK", Shell.errnoOf("os.setxattr(a, 'user.k', b'v', os.XATTR_CREATE)", file));
        assertEquals("EEXIST", Shell.errnoOf("os.setxattr(a, 'user.k', b'v', os.XATTR_CREATE)", file));
    }

    @Test
    void securityLabelsAndPosixAclsAreENOTSUP() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals("ENOTSUP", Shell.errnoOf("os.getxattr(a, 'security.selinux')", file));
        assertEquals("ENOTSUP", Shell.errnoOf("os.setxattr(a, 'security.selinux', b'label')", file));
        assertEquals("ENOTSUP", Shell.errnoOf("os.getxattr(a, 'system.posix_acl_access')", file));
        assertEquals("ENOTSUP", Shell.errnoOf("os.getxattr(a, 'system.posix_acl_default')", dir));
    }

    @Test
    void lsLongAsksForLabelsAndAclsOfTheFirstFileOnly() throws IOException {
        for (int i = 0; i < 30; i++) {
            Files.createFile(dir.resolve("f" + i));
        }
        Path trace = outside.resolve("ls.strace");
        Shell.run(dir, "strace", "-e", "trace=getxattr,lgetxattr", "-o", trace.toString(), "ls", "-l", ".")
                .assertOk();
        List<String> calls = Files.readAllLines(trace).stream().filter(line -> line.contains("xattr(")).toList();
        // ls remembers a device that answered ENOTSUP; ENODATA would cost two calls per file (60)
        assertTrue(calls.size() <= 4, "xattr calls: " + calls);
    }

    @Test
    void readlinkOfAFileIsEINVAL() throws IOException {
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals("EINVAL", Shell.errnoOf("os.readlink(a)", file));
        FileSystemException e = assertThrows(FileSystemException.class, () -> Files.readSymbolicLink(file));
        assertTrue(String.valueOf(e.getReason()).contains("Not a link") || e instanceof java.nio.file.NotLinkException,
                String.valueOf(e));
    }

    @Test
    void renameOfADirectoryIntoItselfIsEINVAL() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("sub/inner"));
        assertEquals("EINVAL", Shell.errnoOf("os.rename(a, b)", dir.resolve("sub"), sub.resolve("x")));
    }
}
