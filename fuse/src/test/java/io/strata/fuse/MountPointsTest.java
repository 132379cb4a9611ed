package io.strata.fuse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MountPointsTest {
    @Test
    void parsesMountPointTypeAndSource() {
        MountPoints.Entry entry = MountPoints.parseLine(
                "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue").orElseThrow();
        assertEquals(Path.of("/mnt/parent"), entry.mountPoint());
        assertEquals("ext3", entry.fsType());
        assertEquals("/dev/root", entry.source());
        assertFalse(entry.isFuse());
    }

    @Test
    void parsesTheDeviceNumberThatNamesTheMountsBdi() {
        MountPoints.Entry entry = MountPoints.parseLine(
                "42 27 0:39 / /tmp/k/mnt rw,nosuid,nodev,relatime - fuse.strata strata:/tmp/k/src rw,user_id=0")
                .orElseThrow();
        assertEquals("0:39", entry.device());
    }

    @Test
    void parsesLinesWithoutOptionalFields() {
        MountPoints.Entry entry = MountPoints.parseLine("22 27 0:21 / /proc rw,relatime - proc proc rw").orElseThrow();
        assertEquals(Path.of("/proc"), entry.mountPoint());
        assertEquals("proc", entry.fsType());
    }

    @Test
    void parsesSeveralOptionalFields() {
        MountPoints.Entry entry = MountPoints.parseLine(
                "50 27 0:45 / /mnt/a rw,nosuid shared:7 master:2 propagate_from:1 - fuse strata rw,user_id=0")
                .orElseThrow();
        assertEquals(Path.of("/mnt/a"), entry.mountPoint());
        assertEquals("fuse", entry.fsType());
        assertEquals("strata", entry.source());
        assertTrue(entry.isFuse());
    }

    @Test
    void decodesOctalEscapesInMountPoints() {
        MountPoints.Entry entry = MountPoints.parseLine(
                "61 27 0:50 / /mnt/my\\040data\\011x\\134y rw - fuse.strata /data\\040dir rw").orElseThrow();
        assertEquals(Path.of("/mnt/my data\tx\\y"), entry.mountPoint());
        assertEquals("fuse.strata", entry.fsType());
        assertEquals("/data dir", entry.source());
        assertTrue(entry.isFuse());
    }

    @Test
    void unescapeLeavesOtherBackslashesAndUtf8Alone() {
        assertEquals("plain", MountPoints.unescape("plain"));
        assertEquals("a\\0b", MountPoints.unescape("a\\0b"));
        assertEquals("a\\", MountPoints.unescape("a\\"));
        assertEquals("\u00e9t\u00e9 x", MountPoints.unescape("\u00e9t\u00e9\\040x"));
        assertEquals("\n", MountPoints.unescape("\\012"));
    }

    @Test
    void skipsMalformedLines() {
        assertTrue(MountPoints.parseLine("").isEmpty());
        assertTrue(MountPoints.parseLine("1 2 3 / /x rw").isEmpty());
        assertTrue(MountPoints.parseLine("1 2 0:1 / /x rw shared:1 ext4 /dev/x rw").isEmpty());
        List<MountPoints.Entry> entries = MountPoints.parse(List.of(
                "garbage",
                "22 27 0:21 / /proc rw,relatime - proc proc rw",
                "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw"));
        assertEquals(2, entries.size());
    }

    @Test
    void readsThisProcessMountTable() {
        assertTrue(MountPoints.isMounted(Path.of("/proc")));
        assertEquals("proc", MountPoints.find(Path.of("/proc")).orElseThrow().fsType());
        assertFalse(MountPoints.table().isEmpty());
    }

    @Test
    void aPlainDirectoryIsNeitherMountedNorStale(@TempDir Path dir) throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertFalse(MountPoints.isMounted(sub));
        assertFalse(MountPoints.isStale(sub));
        assertFalse(MountPoints.isStale(dir.resolve("missing")));
    }

    @Test
    void matchesThroughSymlinkedParents(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("/"));
        assertTrue(MountPoints.isMounted(link.resolve("proc")));
        assertEquals(Path.of("/proc"), MountPoints.canonical(link.resolve("proc")));
        assertEquals(Path.of("/proc/../proc").normalize(), MountPoints.canonical(Path.of("/proc/../proc")));
    }
}
