package io.strata.it;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page store seen through a real FUSE mount: second reads served from the cache, damaged
 * pages never served, quotas kept, unusable cache directories bypassed. The mounts use
 * {@code direct_io} so that every read reaches Strata rather than the kernel's page cache.
 *
 * <p>Per under storage: a subclass says how to mount a volume over it and how to put an object
 * into it behind the mount's back ({@link LocalPageCacheTest}, {@link S3PageCacheTest}).
 */
abstract class AbstractPageCacheTest {
    static final int MIB = 1 << 20;
    static final Duration FILL_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path base;
    final List<MountedVolume> volumes = new ArrayList<>();

    /** A volume under {@code dir} with these {@code -o} options, not yet mounted. */
    abstract MountedVolume newVolume(Path dir, String... options) throws IOException;

    /** Writes {@code name} with {@code data} straight into the under storage, as another tool would. */
    abstract void putObject(MountedVolume volume, String name, byte[] data) throws IOException;

    /** Deletes {@code name} straight from the under storage, as another tool would. */
    abstract void deleteObject(MountedVolume volume, String name) throws IOException;

    MountedVolume mount(String... options) throws IOException {
        List<String> all = new ArrayList<>(List.of("direct_io"));
        all.addAll(List.of(options));
        MountedVolume volume = newVolume(Files.createDirectories(base.resolve("v" + volumes.size())),
                all.toArray(String[]::new));
        volumes.add(volume);
        return volume.mount();
    }

    @AfterEach
    void unmountAll() throws IOException {
        for (MountedVolume volume : volumes) {
            volume.close();
        }
    }

    static double counter(MountedVolume volume, String name, String tier) {
        Counter c = volume.meters().find(name).tag("tier", tier).counter();
        return c == null ? 0 : c.count();
    }

    static double gauge(MountedVolume volume, String name, String tier) {
        Gauge g = volume.meters().find(name).tag("tier", tier).gauge();
        return g == null ? 0 : g.value();
    }

    /** Waits until every page fetched so far was stored or dropped: the background fills are done. */
    static void awaitFills(MountedVolume volume) {
        Poll.until("background fills", "done", FILL_TIMEOUT, () -> {
            double fetches = counter(volume, "strata.cache.fetches", "ufs");
            double fills = counter(volume, "strata.cache.fills", "disk");
            double dropped = counter(volume, "strata.cache.fills.dropped", "disk");
            double queueFull = counter(volume, "strata.cache.fills.dropped", "all");
            return fetches <= fills + dropped + queueFull ? "done"
                    : "fetches " + fetches + ", fills " + fills + ", dropped " + dropped + " + " + queueFull;
        });
    }

    static long pageFileBytes(Path cacheDir) throws IOException {
        return FileTrees.regularFiles(cacheDir.resolve("pages")).stream().mapToLong(FileTrees.Entry::size).sum();
    }

    static List<Path> pageFiles(Path cacheDir) throws IOException {
        return FileTrees.regularFiles(cacheDir.resolve("pages")).stream()
                .map(FileTrees.Entry::path).filter(p -> p.toString().endsWith(".page")).toList();
    }

    @Test
    void theSecondReadOfAFileDoesNoUnderStorageReads() throws IOException {
        MountedVolume volume = mount();
        byte[] data = Bytes.random(7, 5 * MIB + 3);
        putObject(volume, "data.bin", data);

        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        awaitFills(volume);
        double fetches = counter(volume, "strata.cache.fetches", "ufs");
        assertEquals(6, fetches, "each page fetched once");

        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        assertEquals(fetches, counter(volume, "strata.cache.fetches", "ufs"), "no fetch on the second read");
        assertTrue(counter(volume, "strata.cache.hits", "memory") > 0, "served from memory");
    }

    @Test
    void cachedPagesAreSplicedToTheKernelWithTheirExactBytes() throws IOException {
        MountedVolume volume = mount("local_cache_memory_size=0");
        byte[] data = Bytes.random(9, 8 * MIB + 5000);
        putObject(volume, "data.bin", data);
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        awaitFills(volume);

        ByteBuffer read = ByteBuffer.allocate(128 << 10);
        try (FileChannel in = FileChannel.open(volume.path("data.bin"))) {
            // Random reads, each over a page (the read pattern's slack) from where any read ended, as
            // a stream's reads are copied: from a page's start, from inside one, across two pages;
            // then the file's short tail, right after where the first whole read ended.
            for (long at : new long[] {4 * MIB, 2 * MIB + 3, 6 * MIB - 4096, 8 * MIB}) {
                read.clear();
                while (read.hasRemaining() && in.read(read, at + read.position()) > 0) {
                    // until full or at the end
                }
                int n = read.position();
                assertEquals(Math.min(read.capacity(), data.length - at), n, "bytes at " + at);
                assertArrayEquals(Arrays.copyOfRange(data, (int) at, (int) at + n), Arrays.copyOf(read.array(), n),
                        "bytes at " + at);
            }
        }
        // and a stream's: the whole file again, in the kernel's readahead requests
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));

        Counter spliced = volume.meters().find("strata.fuse.read.spliced").counter();
        if (Transport.current() == Transport.KERNEL) {
            // A worker counts a reply after sending it, so the count may trail the reads a little.
            // The stream's first reads may be copied (the kernel's first readahead requests are
            // short ones), and so is its last: the tail, under 32 KiB.
            long expected = 3 * (128 << 10) + 6 * MIB;
            Poll.until("bytes spliced", "the random reads' and most of the stream's", FILL_TIMEOUT,
                    () -> spliced != null && spliced.count() >= expected ? "the random reads' and most of the stream's"
                            : "" + (spliced == null ? "no counter" : spliced.count()));
        } else {
            assertTrue(spliced == null || spliced.count() == 0, "libfuse2 copies every reply");
        }
    }

    @Test
    void aCorruptedPageFileStillReadsBackCorrectBytes() throws IOException {
        MountedVolume volume = mount("local_cache_memory_size=0");
        byte[] data = Bytes.random(8, 3 * MIB);
        putObject(volume, "data.bin", data);
        Files.readAllBytes(volume.path("data.bin"));
        awaitFills(volume);
        // Damage a restart finds, as a crash leaves it: pages found on disk are checked before any
        // of their bytes leave the daemon, copied or spliced. (Pages a daemon wrote itself are lent
        // as written: their checksums were taken from the bytes it wrote; docs/CACHE.md.)
        volume.remount();
        List<Path> files = pageFiles(volume.defaultCacheDir());
        assertEquals(3, files.size());
        for (Path file : files) {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(raf.length() - 1000);
                int b = raf.read();
                raf.seek(raf.length() - 1000);
                raf.write(b ^ 0xff);
            }
        }
        double fetches = counter(volume, "strata.cache.fetches", "ufs");

        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        assertEquals(3, counter(volume, "strata.cache.checksum.failures", "disk"));
        assertEquals(fetches + 3, counter(volume, "strata.cache.fetches", "ufs"), "the damaged pages were fetched");
        awaitFills(volume);
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")), "and cached again");
        assertEquals(fetches + 3, counter(volume, "strata.cache.fetches", "ufs"));
    }

    @Test
    void readingThreeTimesTheQuotaKeepsEachDirectoryWithinIt() throws IOException {
        Path a = base.resolve("cache-a");
        Path b = base.resolve("cache-b");
        long quota = 4 * MIB;
        MountedVolume volume = mount("local_cache_memory_size=0", "local_data_cache=" + a + "," + b,
                "local_data_cache_size=4MiB");
        byte[] data = Bytes.random(9, 24 * MIB); // 3x the two directories' 8 MiB
        putObject(volume, "big.bin", data);

        assertArrayEquals(data, Files.readAllBytes(volume.path("big.bin")));
        awaitFills(volume);
        for (Path dir : List.of(a, b)) {
            long used = pageFileBytes(dir);
            assertTrue(used <= quota, dir + " holds " + used + " bytes, over its quota of " + quota);
            assertTrue(used > quota / 2, dir + " was used: " + used);
        }
        assertTrue(counter(volume, "strata.cache.evictions", "disk") > 0);
        assertArrayEquals(data, Files.readAllBytes(volume.path("big.bin")), "still correct after evictions");
    }

    @Test
    void aCacheDirectoryThatCannotBeCreatedIsBypassedAndReadsSucceed() throws IOException {
        Path blocker = Files.writeString(base.resolve("a-regular-file"), "x");
        MountedVolume volume = mount("local_cache_memory_size=0", "local_data_cache=" + blocker.resolve("cache"));
        byte[] data = Bytes.random(10, 2 * MIB + 1);
        putObject(volume, "data.bin", data);
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        assertEquals(2.0 * data.length, counter(volume, "strata.cache.bytes.fetched", "ufs"),
                "each read fetched just its bytes, no whole pages");
        assertEquals(0, gauge(volume, "strata.cache.pages", "disk"));
    }

    @Test
    void aCacheDirectoryOnAFullDiskIsBypassedAndReadsSucceed() throws IOException {
        // free_space_ratio=0.999: this disk is "full" for the cache, whatever it really holds.
        MountedVolume volume = mount("local_cache_memory_size=0", "free_space_ratio=0.999");
        byte[] data = Bytes.random(11, 2 * MIB);
        putObject(volume, "data.bin", data);
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        awaitFills(volume);
        assertEquals(0, pageFileBytes(volume.defaultCacheDir()), "nothing cached below the free space floor");
        assertArrayEquals(data, Files.readAllBytes(volume.path("data.bin")));
        double fetched = counter(volume, "strata.cache.bytes.fetched", "ufs");
        assertTrue(fetched <= 2.0 * data.length + MIB, "once found full, reads fetch just their bytes: " + fetched);
    }

    /**
     * With metadata_sync_interval set, as a mount that must see other tools' changes is (by default
     * an S3 mount reads what its metastore recorded; see {@link S3PageCacheTest}).
     */
    @Test
    void anObjectChangedBehindTheMountIsReadAnew() throws IOException {
        MountedVolume volume = mount("metadata_sync_interval=0");
        putObject(volume, "f.bin", Bytes.random(12, MIB));
        assertArrayEquals(Bytes.random(12, MIB), Files.readAllBytes(volume.path("f.bin")));
        awaitFills(volume);
        putObject(volume, "f.bin", Bytes.random(13, MIB));
        Poll.until("new content through the mount", true, Duration.ofSeconds(5),
                () -> java.util.Arrays.equals(Bytes.random(13, MIB), Files.readAllBytes(volume.path("f.bin"))));
    }

    /**
     * A file deleted from the under storage by another tool, with the default metadata sync
     * (never): the first open (a local source) or read (S3, whose open asks nothing) that finds its
     * data gone fails with ENOENT, and the name goes (at once, or at the file's release).
     */
    @Test
    void aFileDeletedBehindTheMountLosesItsNameWhenItsDataIsFoundGone() throws IOException {
        MountedVolume volume = mount();
        putObject(volume, "gone.bin", Bytes.random(14, MIB));
        putObject(volume, "kept.bin", Bytes.random(15, MIB));
        assertEquals(List.of("gone.bin", "kept.bin"), names(volume.mountPoint()));
        deleteObject(volume, "gone.bin");

        assertThrows(IOException.class, () -> Files.readAllBytes(volume.path("gone.bin")));
        // On S3 the name goes at the file's release, which the kernel sends after close(2) returns.
        Poll.until("the names listed", List.of("kept.bin"), Duration.ofSeconds(5), () -> names(volume.mountPoint()));
        // fuse=jnr cannot tell the kernel: its entry for the name lasts until entry_timeout (1 s).
        Poll.until("the name found", false, Duration.ofSeconds(5), () -> Files.exists(volume.path("gone.bin")));
        assertArrayEquals(Bytes.random(15, MIB), Files.readAllBytes(volume.path("kept.bin")));
    }

    private static List<String> names(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).filter(name -> !name.startsWith(".")).sorted()
                    .toList();
        }
    }
}
