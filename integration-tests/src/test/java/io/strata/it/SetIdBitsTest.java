package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Set-user-ID and set-group-ID bits go as Linux's own file systems drop them: at a write or
 * truncate by a user without CAP_FSETID, and at any change of owner; set-group-ID only where the
 * group may execute. Through Strata's own transport the server clears them
 * (FUSE_HANDLE_KILLPRIV_V2), through libfuse2 the kernel does. Other users write as {@code nobody},
 * so the mount allows other users.
 */
class SetIdBitsTest {
    @TempDir
    static Path base;
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
        Shell.run(null, "chmod", "0777", dir.toString()).assertOk();
    }

    @Test
    void anotherUsersWriteClearsSetuidAndTheSetgidOfAGroupExecutableFile() {
        Path file = fileWithMode("06777");
        Shell.asNobody("sh", "-c", "echo more >> " + file).assertOk();
        assertEquals("777", mode(file));
    }

    @Test
    void anotherUsersWriteKeepsASetgidWithoutGroupExecute() {
        Path file = fileWithMode("06766"); // set-group-ID without group execute: mandatory locking's mark
        Shell.asNobody("sh", "-c", "echo more >> " + file).assertOk();
        assertEquals("2766", mode(file));
    }

    @Test
    void aWriteByRootKeepsTheBits() {
        Path file = fileWithMode("06777");
        Shell.sh(dir, "echo more >> " + file).assertOk();
        assertEquals("6777", mode(file));
    }

    @Test
    void anotherUsersTruncateClearsTheBits() {
        Path file = fileWithMode("06777");
        Shell.asNobody("truncate", "-s", "1", file.toString()).assertOk();
        assertEquals("777", mode(file));
    }

    @Test
    void anotherUsersTruncatingOpenClearsTheBits() {
        Path file = fileWithMode("06777");
        Shell.asNobody("sh", "-c", "echo new > " + file).assertOk();
        assertEquals("777", mode(file));
    }

    @Test
    void aChangeOfOwnerClearsAFilesBitsEvenByRoot() {
        Path file = fileWithMode("06777");
        Shell.run(null, "chown", "65534", file.toString()).assertOk();
        assertEquals("777", mode(file));
    }

    @Test
    void aChangeOfOwnerKeepsADirectorysSetgid() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Shell.run(null, "chmod", "2777", sub.toString()).assertOk();
        Shell.run(null, "chown", "65534", sub.toString()).assertOk();
        assertEquals("2777", mode(sub));
    }

    @Test
    void anotherUsersDirectWriteClearsTheBits() {
        // libfuse2's API passes no write flags, so only Strata's own transport sees the kernel ask
        assumeTrue(Transport.current() == Transport.KERNEL, "fuse=kernel only");
        Path file = fileWithMode("06777");
        Shell.asNobody("dd", "if=/dev/zero", "of=" + file, "bs=4096", "count=1", "oflag=direct", "conv=notrunc",
                "status=none").assertOk();
        assertEquals("777", mode(file));
    }

    @Test
    void aSetgidDirectoryHandsItsGroupToNewFilesAndItsBitToNewDirectories() {
        Shell.sh(dir, "mkdir shared && chgrp 65534 shared && chmod 2775 shared"
                + " && touch shared/f && mkdir shared/sub && ln -s f shared/link").assertOk();
        String made = Shell.run(null, "stat", "-c", "%n %g %a", dir.resolve("shared/f").toString(),
                dir.resolve("shared/sub").toString()).assertOk().out();
        String link = Shell.run(null, "stat", "-c", "%g", dir.resolve("shared/link").toString()).assertOk().out();

        assertEquals(dir.resolve("shared/f") + " 65534 644\n" + dir.resolve("shared/sub") + " 65534 2755\n", made);
        assertEquals("65534", link.trim(), "the link's own group: stat(1) does not follow it");
    }

    private Path fileWithMode(String octal) {
        Path file = dir.resolve("f");
        Shell.sh(dir, "echo data > f && chmod " + octal + " f").assertOk();
        assertEquals(octal.replaceFirst("^0", ""), mode(file), "the bits were not set to begin with");
        return file;
    }

    /** The permission bits as stat(1) prints them in octal, with the set-ID digit when there is one. */
    private static String mode(Path file) {
        return Shell.run(null, "stat", "-c", "%a", file.toString()).assertOk().out().trim();
    }
}
