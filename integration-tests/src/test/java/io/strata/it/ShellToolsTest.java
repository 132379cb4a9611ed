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
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The everyday tools on a mount: coreutils, attr, dd and fio, judged by their exit status and by
 * what {@code stat}, {@code getfattr} and {@code cmp} say afterwards. Each test runs its script
 * in its own directory of one shared mount.
 */
class ShellToolsTest {
    @TempDir
    static Path base;
    @TempDir
    static Path outside;
    static MountedVolume volume;

    private Path dir;

    @BeforeAll
    static void mount() throws IOException {
        volume = MountedVolume.under(base).mount();
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

    private String sh(String script) {
        return Shell.sh(dir, script).assertOk().out();
    }

    @Test
    void cpCopiesBytesModeOwnerAndTimes() throws IOException {
        Files.write(dir.resolve("orig"), Bytes.random(11, 200_000));
        sh("chmod 640 orig && chown 1234:5678 orig && touch -d '2021-05-06 07:08:09.5' orig && cp -p orig copy");

        assertEquals(sh("stat -c '%s %a %u %g %y' orig"), sh("stat -c '%s %a %u %g %y' copy"));
        assertEquals("200000 640 1234 5678 2021-05-06 07:08:09.500000000 +0000\n", sh("stat -c '%s %a %u %g %y' copy"));
        sh("cmp orig copy");
        assertArrayEquals(Files.readAllBytes(dir.resolve("orig")), Files.readAllBytes(volume.inSource(dir.resolve("copy"))));
    }

    @Test
    void mvRenamesInsideTheMountAndMovesInFromOutside() throws IOException {
        Files.write(outside.resolve("incoming"), Bytes.random(12, 70_000));
        Files.writeString(dir.resolve("a"), "a");
        sh("mv a b && mv " + outside.resolve("incoming") + " ./incoming");

        assertEquals(List.of("b", "incoming"), MountedVolume.names(dir));
        assertEquals("a", Files.readString(dir.resolve("b")));
        assertArrayEquals(Bytes.random(12, 70_000), Files.readAllBytes(dir.resolve("incoming")));
        assertFalse(Files.exists(outside.resolve("incoming")));
        assertEquals(List.of("b", "incoming"), MountedVolume.names(volume.inSource(dir)));
    }

    @Test
    void lnMakesAHardLinkWithTheSameInode() {
        sh("echo data > f && ln f g");
        assertEquals(sh("stat -c %i f"), sh("stat -c %i g"));
        assertEquals("2\n", sh("stat -c %h g"));
        // the old name's cached link count is refreshed within attr_timeout (1 s): libfuse2's
        // high-level API gives each name its own kernel inode
        Poll.until("link count of the old name", "2\n", Duration.ofSeconds(3), () -> sh("stat -c %h f"));
        assertEquals("data\n", sh("cat g"));
    }

    @Test
    void lnSymbolicMakesASymlinkThatResolves() {
        sh("echo data > target && ln -s target link && ln -s /nowhere dangling");
        assertEquals("target\n", sh("readlink link"));
        assertEquals("symbolic link 6\n", sh("stat -c '%F %s' link"));
        assertEquals("data\n", sh("cat link"));
        assertEquals("/nowhere\n", sh("readlink dangling"));
        assertFalse(Shell.sh(dir, "cat dangling").exit() == 0);
    }

    @Test
    void chmodSetsTheModeStatShows() {
        sh("touch f && chmod 4751 f && mkdir d && chmod 1777 d");
        assertEquals("4751 -rwsr-x--x\n", sh("stat -c '%a %A' f"));
        assertEquals("1777 drwxrwxrwt\n", sh("stat -c '%a %A' d"));
        sh("chmod go-rwx f");
        assertEquals("4700\n", sh("stat -c %a f"));
    }

    @Test
    void chownSetsTheOwnerStatShows() {
        sh("touch f && chown 1234:5678 f");
        assertEquals("1234:5678\n", sh("stat -c %u:%g f"));
        sh("chown :42 f");
        assertEquals("1234:42\n", sh("stat -c %u:%g f"));
    }

    @Test
    void touchSetsNanosecondTimestamps() {
        sh("touch -d '2020-01-02 03:04:05.123456789' f && touch -a -d '2019-12-31 23:59:59.000000001' f");
        assertEquals("2020-01-02 03:04:05.123456789 +0000\n", sh("stat -c %y f"));
        assertEquals("2019-12-31 23:59:59.000000001 +0000\n", sh("stat -c %x f"));
    }

    @Test
    void truncateSetsTheSizeBothWays() {
        sh("printf 0123456789 > f && truncate -s 10M f");
        assertEquals("10485760\n", sh("stat -c %s f"));
        sh("cmp -i 10:0 -n 10485750 f /dev/zero");
        assertEquals("0123456789", sh("head -c 10 f"));
        sh("truncate -s 4 f");
        assertEquals("0123", sh("cat f"));
        sh("truncate -s 0 f");
        assertEquals("0\n", sh("stat -c %s f"));
    }

    @Test
    void setfattrAndGetfattrRoundTrip() {
        sh("touch f && setfattr -n user.color -v blue f && setfattr -n user.bin -v 0x00ff10 f");
        String dump = sh("getfattr -d f");
        assertTrue(dump.contains("user.color=\"blue\""), dump);
        assertEquals("user.bin=0x00ff10\n", sh("getfattr --only-values -e hex -n user.bin f | xxd -p | sed 's/^/user.bin=0x/'"));
        assertTrue(sh("getfattr -e hex -n user.bin f").contains("user.bin=0x00ff10"));
        sh("setfattr -x user.color f");
        String after = sh("getfattr -d f");
        assertFalse(after.contains("user.color"), after);
        assertTrue(after.contains("user.bin"), after);
    }

    @Test
    void ddWritesWithFsyncAndReadsBackTheSameBytes() throws IOException {
        Path reference = outside.resolve("dd-reference");
        Files.write(reference, Bytes.random(13, 8 << 20));
        Shell.Result write = Shell.sh(dir, "dd if=" + reference + " of=f bs=1M count=8 conv=fsync").assertOk();
        assertTrue(write.err().contains("8388608 bytes"), write.describe());
        Shell.Result read = Shell.sh(dir, "dd if=f of=" + outside.resolve("dd-back") + " bs=1M").assertOk();
        assertTrue(read.err().contains("8388608 bytes"), read.describe());

        assertEquals(Bytes.sha256(reference), Bytes.sha256(outside.resolve("dd-back")));
        assertEquals(Bytes.sha256(reference), Bytes.sha256(volume.inSource(dir.resolve("f"))));
    }

    @Test
    void fioSequentialWriteVerifies() {
        Shell.Result fio = Shell.run(dir, "fio", "--name=seq", "--directory=" + dir, "--rw=write", "--bs=1M",
                "--size=32M", "--verify=crc32c", "--do_verify=1", "--ioengine=psync", "--end_fsync=1")
                .assertOk();
        assertTrue(fio.out().contains("err= 0"), fio.describe());
        assertFalse(fio.err().contains("verify"), fio.describe());
        assertEquals(32 << 20, volume.inSource(dir.resolve("seq.0.0")).toFile().length());
    }

    @Test
    void fioRandomReadWriteVerifies() {
        Shell.Result fio = Shell.run(dir, "fio", "--name=rand", "--directory=" + dir, "--rw=randrw", "--bs=4k",
                "--size=8M", "--verify=crc32c", "--do_verify=1", "--ioengine=psync", "--randseed=7")
                .assertOk();
        assertTrue(fio.out().contains("err= 0"), fio.describe());
        assertFalse(fio.err().contains("verify"), fio.describe());
    }
}
