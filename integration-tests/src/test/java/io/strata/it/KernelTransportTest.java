package io.strata.it;

import io.micrometer.core.instrument.Timer;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the inode-based transport ({@code fuse=kernel}) does that libfuse2's path-based API could
 * not: one kernel inode per Strata inode (hard links), nlink 0 on an open unlinked file, and the
 * kernel's caches dropped the moment Strata learns of a change made behind its back.
 */
class KernelTransportTest {
    @TempDir
    static Path base;
    static MountedVolume volume;

    private Path dir;

    @BeforeAll
    static void mount() throws IOException {
        assumeTrue(Transport.current() == Transport.KERNEL, "fuse=kernel only");
        // Every access re-lists from the source, so a change made there is learnt at the next listing.
        volume = MountedVolume.under(base, "metadata_sync_interval=0", "attr_timeout=60", "entry_timeout=60").mount();
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
    void aNewHardLinkCountsOnTheOtherNameAtOnce() {
        Shell.Result result = Shell.sh(dir, "echo x > a && stat -c %h a && ln a b && stat -c %h a && rm b && stat -c %h a")
                .assertOk();
        assertThat(result.out().lines()).containsExactly("1", "2", "1");
    }

    @Test
    void hardLinksShareOneInodeNumber() {
        Shell.Result result = Shell.sh(dir, "echo x > a && ln a b && stat -c %i a b").assertOk();
        assertEquals(1, result.out().lines().distinct().count(), result.out());
    }

    @Test
    void fstatOfAnOpenUnlinkedFileShowsNoLinks() {
        String nlink = Shell.errnoOf("""
                fd = os.open(a, os.O_CREAT | os.O_RDWR, 0o644)
                os.write(fd, b'data')
                os.unlink(a)
                n = os.fstat(fd).st_nlink
                os.close(fd)
                if n != 0: raise OSError(1000 + n, 'nlink')""", dir.resolve("f"));
        assertEquals("OK", nlink);
    }

    @Test
    void truncateBeyondTheLargestFileIsEfbig() {
        assertEquals("EFBIG", Shell.errnoOf("os.truncate(a, 999999999999999)", createEmpty("big")));
    }

    @Test
    void aFileChangedInTheSourceIsReadAnewOnceTheListingShowsIt() throws IOException {
        Path file = dir.resolve("f");
        Files.writeString(file, "first version");
        assertEquals("first version", Shell.sh(dir, "cat f").assertOk().out()); // now in the kernel's page cache
        Files.writeString(volume.inSource(file), "second version, longer");
        Shell.sh(dir, "ls -l > /dev/null").assertOk(); // the re-listing finds the new version
        assertEquals("second version, longer", Shell.sh(dir, "cat f").assertOk().out());
    }

    @Test
    void aNameRemovedFromTheSourceIsGoneOnceTheListingShowsIt() throws IOException {
        Path file = dir.resolve("gone");
        Files.writeString(file, "x");
        assertEquals("x", Shell.sh(dir, "cat gone").assertOk().out()); // the kernel caches the name for 60 s
        Files.delete(volume.inSource(file));
        double sent = notificationsSent();
        Shell.sh(dir, "ls > /dev/null").assertOk();
        assertEquals("ENOENT", Shell.errnoOf("os.stat(a)", file));
        // The kernel took a NOTIFY_DELETE for the name: its cached entry could otherwise last 60 s.
        assertTrue(notificationsSent() > sent, "no invalidation reached the kernel");
    }

    @Test
    void closingAFileOpenedOnlyForReadingSendsNoFlush() throws IOException {
        Path file = dir.resolve("f");
        Files.writeString(file, "data");
        Poll.until("the write's FLUSH counted", true, Duration.ofSeconds(5), () -> served("flush") >= 1);
        long flushes = served("flush");
        long releases = served("release");
        for (int i = 0; i < 20; i++) {
            assertEquals("data", Files.readString(file));
        }
        Files.writeString(file, "more data");
        // Each close's FLUSH comes before its RELEASE, which the kernel sends once close(2) returns.
        Poll.until("21 releases counted", true, Duration.ofSeconds(5), () -> served("release") >= releases + 21);
        // A worker meters its request after replying, so the writer's FLUSH may be counted a moment
        // after the RELEASE that followed it (another worker's)
        Poll.until("the writer's FLUSH counted", true, Duration.ofSeconds(5), () -> served("flush") > flushes);
        assertEquals(flushes + 1, served("flush"), "only the writer's close flushes");
    }

    @Test
    void aStreamOfWritesAsksForTheFilesSecurityCapabilityOnceNotBeforeEachWrite() throws IOException {
        Path file = dir.resolve("f");
        long before = served("getxattr");
        Files.writeString(file, "first");
        // a worker meters its request after replying: wait for the first write's own
        Poll.until("the first write's GETXATTR counted", true, Duration.ofSeconds(5),
                () -> served("getxattr") > before);
        long asked = served("getxattr");
        assertEquals("OK", Shell.errnoOf("""
                fd = os.open(a, os.O_WRONLY | os.O_APPEND)
                for _ in range(50): os.write(fd, b'x' * 4096)
                os.close(fd)""", file));
        assertEquals(5 + 50 * 4096, Files.size(file));
        // The open may refresh the file's attributes, which makes its first write ask again
        assertThat(served("getxattr") - asked).as("GETXATTRs for 50 writes").isLessThanOrEqualTo(1);
    }

    private static long served(String op) {
        Timer timer = volume.meters().find("strata.fuse.ops").tag("op", op).timer();
        return timer == null ? 0 : timer.count();
    }

    private static double notificationsSent() {
        return volume.meters().get("strata.fuse.notifications").tag("result", "sent").functionCounter().count();
    }

    @Test
    void aFileReplacedInTheSourceIsReadAnewAtItsNextOpen(@TempDir Path own) throws IOException {
        // No re-listing here: the new content version is found when the file is opened again.
        try (MountedVolume cached = MountedVolume.under(own, "attr_timeout=60", "entry_timeout=60",
                "local_cache_memory_size=16MiB").mount()) {
            Path file = cached.mountPoint().resolve("f");
            Files.writeString(file, "version one");
            assertEquals("version one", Shell.sh(cached.mountPoint(), "cat f").assertOk().out());
            Files.writeString(cached.inSource(file), "version two"); // same size: the cached size stays right
            assertEquals("version two", Shell.sh(cached.mountPoint(), "cat f").assertOk().out());
        }
    }

    private Path createEmpty(String name) {
        Path file = dir.resolve(name);
        Shell.sh(dir, "touch " + name).assertOk();
        return file;
    }
}
