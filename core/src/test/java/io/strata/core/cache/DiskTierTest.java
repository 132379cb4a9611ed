package io.strata.core.cache;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import static io.strata.core.cache.AbstractPageStoreTest.PAGE;
import static io.strata.core.cache.AbstractPageStoreTest.content;
import static io.strata.core.cache.AbstractPageStoreTest.id;
import static io.strata.core.cache.AbstractPageStoreTest.page;
import static io.strata.core.cache.AbstractPageStoreTest.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The disk tier's own promises: damaged pages are misses, restarts keep pages, bad directories are bypassed. */
class DiskTierTest {
    @TempDir
    Path base;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final CacheMetrics metrics = new CacheMetrics(registry);
    final AtomicLong clock = new AtomicLong(5_000_000_000L);
    final List<DiskPageStore> opened = new ArrayList<>();
    DiskSpace space = DiskSpace.SYSTEM;
    ListAppender<ILoggingEvent> logs;

    @BeforeEach
    void captureLogs() {
        logs = new ListAppender<>();
        logs.start();
        ((Logger) LoggerFactory.getLogger(CacheDir.class)).addAppender(logs);
    }

    @AfterEach
    void closeAll() {
        ((Logger) LoggerFactory.getLogger(CacheDir.class)).detachAppender(logs);
        for (DiskPageStore store : opened) {
            DiskPageStoreTest.assertIndexMatchesFiles(store);
            store.close();
        }
    }

    DiskPageStore open(Path dir, int pages) {
        return open(List.of(new DiskPageStore.Dir(dir, DiskPageStoreTest.quota(pages))), 0.0);
    }

    DiskPageStore open(List<DiskPageStore.Dir> dirs, double freeSpaceRatio) {
        return open(dirs, freeSpaceRatio, clock::get);
    }

    DiskPageStore open(List<DiskPageStore.Dir> dirs, double freeSpaceRatio, LongSupplier nanoClock) {
        DiskPageStore store = new DiskPageStore(dirs, freeSpaceRatio, "lru", metrics, space, nanoClock);
        opened.add(store);
        return store;
    }

    void close(DiskPageStore store) {
        DiskPageStoreTest.assertIndexMatchesFiles(store);
        store.close();
        opened.remove(store);
    }

    double count(String name) {
        return registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    long warnings() {
        return logs.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN).count();
    }

    Path fileOf(DiskPageStore store, PageId id) {
        return store.dirs().get(0).pathOf(id);
    }

    @Test
    void aCorruptByteIsAMissTheFileIsDeletedAndTheFailureCounted() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 8);
        PageId id = id("f", 0);
        store.put(id, page(id));
        Path file = fileOf(store, id);
        corruptByteAt(file, Files.size(file) - 70_000); // in the data
        assertNull(read(store, id, 0, PAGE));
        assertFalse(Files.exists(file));
        assertEquals(1, count("strata.cache.checksum.failures"));
        assertTrue(store.put(id, page(id)), "the page can be stored again");
        assertArrayEquals(content(id, PAGE), read(store, id, 0, PAGE));
    }

    @Test
    void aCorruptChunkOfAPageFoundOnDiskIsFoundBeforeItIsLentAsARegion() throws IOException {
        PageId id = id("f", 0);
        DiskPageStore store = restartedWith(id);
        Path file = fileOf(store, id);
        corruptByteAt(file, Files.size(file) - 10);
        assertNull(store.region(id, PAGE - 4096, 4096, Reread.SOON));
        assertFalse(Files.exists(file), "dropped");
        assertEquals(1, count("strata.cache.checksum.failures"));
    }

    /** A store over a directory where an earlier one wrote {@code id}: as after a restart, the page is found, not written. */
    private DiskPageStore restartedWith(PageId id) {
        DiskPageStore writer = open(base.resolve("c"), 8);
        writer.put(id, page(id));
        close(writer);
        return open(base.resolve("c"), 8);
    }

    @Test
    void aPageTheStoreWroteIsLentAsWrittenWithoutReadingIt() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 8);
        PageId id = id("f", 0);
        store.put(id, page(id));
        Path file = fileOf(store, id);
        corruptByteAt(file, Files.size(file) - 10); // behind the store's back, after it wrote the page

        try (PageRegion region = store.region(id, PAGE - 4096, 4096, Reread.SOON)) {
            assertEquals(4096, region.length(), "lent without a read: its checksums were taken from what it wrote");
        }
        assertEquals(0, count("strata.cache.checksum.failures"));
        assertNull(read(store, id, PAGE - 4096, 4096), "a copied read still checks what it copies");
        assertEquals(1, count("strata.cache.checksum.failures"));
    }

    @Test
    void aChunkOfAPageFoundOnDiskIsCheckedOnItsFirstReadAndLentUnreadAfterThat() throws IOException {
        PageId id = id("f", 0);
        DiskPageStore store = restartedWith(id);
        Path file = fileOf(store, id);
        long data = Files.size(file) - PAGE;
        assertArrayEquals(AbstractPageStoreTest.slice(content(id, PAGE), 0, 8192), read(store, id, 0, 8192),
                "the first read checks the first two chunks");
        corruptByteAt(file, data + 100); // the first chunk, checked already
        corruptByteAt(file, data + 8192 + 100); // the third, never read

        try (PageRegion checked = store.region(id, 0, 8192, Reread.SOON)) {
            assertEquals(8192, checked.length(), "checked chunks are lent without being read again");
        }
        assertEquals(0, count("strata.cache.checksum.failures"));
        assertNull(store.region(id, 0, 12288, Reread.SOON), "a chunk not yet checked is read and checked first");
        assertEquals(1, count("strata.cache.checksum.failures"));
    }

    @Test
    void aRegionStaysReadableWhileLentEvenIfItsPageIsEvicted() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 2);
        PageId first = id("f", 0);
        store.put(first, page(first));
        try (PageRegion region = store.region(first, 100, 5000, Reread.SOON)) {
            store.put(id("f", 1), page(id("f", 1)));
            store.put(id("f", 2), page(id("f", 2)));
            assertFalse(Files.exists(fileOf(store, first)), "evicted");

            ByteBuffer lent = ByteBuffer.allocate(region.length());
            while (lent.hasRemaining()) {
                assertTrue(region.file().read(lent, region.position() + lent.position()) > 0);
            }
            assertArrayEquals(AbstractPageStoreTest.slice(content(first, PAGE), 100, 5000), lent.array());
        }
    }

    private static void corruptByteAt(Path file, long at) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x40);
        }
    }

    @Test
    void aCorruptChunkFailsOnlyReadsThatTouchIt() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 8);
        PageId id = id("f", 0);
        store.put(id, page(id));
        Path file = fileOf(store, id);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(raf.length() - 10); // the second chunk
            raf.write(0);
            raf.write(1);
            raf.write(2);
        }
        assertArrayEquals(AbstractPageStoreTest.slice(content(id, PAGE), 0, 1000), read(store, id, 0, 1000),
                "the intact first chunk reads");
        assertNull(read(store, id, PAGE - 100, 100));
        assertEquals(1, count("strata.cache.checksum.failures"));
    }

    @Test
    void aLongReadOffChunkBoundariesIsCheckedChunkByChunk() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 12);
        PageId big = new PageId("f", "v1", 0, 1 << 20);
        byte[] bytes = content(big, 1 << 20);
        store.put(big, ByteBuffer.wrap(bytes));
        assertArrayEquals(AbstractPageStoreTest.slice(bytes, 1000, 700_000), read(store, big, 1000, 700_000),
                "read through the scratch buffer a group of chunks at a time");
        try (RandomAccessFile raf = new RandomAccessFile(fileOf(store, big).toFile(), "rw")) {
            raf.seek(raf.length() - bytes.length + 600_000); // in the read's third group
            raf.write(~bytes[600_000]);
        }
        assertNull(read(store, big, 1000, 700_000));
        assertEquals(1, count("strata.cache.checksum.failures"));
    }

    @Test
    void aPageOfSeveralStagesIsWrittenWholeAndCheckedChunkByChunkDirectOrThroughThePageCache() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 64);
        int length = (3 << 20) + 5000; // three whole staging buffers and a short fourth, not block-aligned
        for (Reread reread : Reread.values()) {
            PageId id = new PageId("f-" + reread, "v1", 0, 4 << 20);
            byte[] bytes = content(id, length);
            assertTrue(store.put(id, ByteBuffer.wrap(bytes).asReadOnlyBuffer(), reread));
            Path file = fileOf(store, id);
            int headerLength = PageFile.headerLength(id, length);
            assertEquals(headerLength + length, Files.size(file), reread + ": the last block's padding is cut off");
            assertArrayEquals(bytes, read(store, id, 0, length), reread.toString());

            int damaged = (2 << 20) + 100; // in the third stage
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(headerLength + damaged);
                raf.write(~bytes[damaged]);
            }
            int chunk = PageFile.chunkSize(id.pageSize());
            int chunkStart = damaged / chunk * chunk;
            assertArrayEquals(AbstractPageStoreTest.slice(bytes, chunkStart - chunk, chunk),
                    read(store, id, chunkStart - chunk, chunk), reread + ": the chunk before the damaged one reads");
            assertNull(read(store, id, chunkStart, chunk), reread + ": the damaged chunk is a miss");
        }
        assertEquals(Reread.values().length, count("strata.cache.checksum.failures"));
    }

    @Test
    void aShortOrMissingFileIsAMiss() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 8);
        PageId shortened = id("f", 0);
        PageId removed = id("f", 1);
        store.put(shortened, page(shortened));
        store.put(removed, page(removed));
        try (FileChannel ch = FileChannel.open(fileOf(store, shortened), StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 1);
        }
        Files.delete(fileOf(store, removed));
        assertNull(read(store, shortened, PAGE - 10, 10));
        assertNull(read(store, removed, 0, 10));
        assertEquals(1, count("strata.cache.checksum.failures"));
        assertEquals(1, count("strata.cache.pages.lost"));
        assertEquals(0, store.pageCount());
    }

    @Test
    void aHeaderNamingAnotherPageIsAMiss() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 8);
        PageId a = id("f", 0);
        PageId b = id("f", 1);
        store.put(a, page(a));
        store.put(b, page(b));
        Files.copy(fileOf(store, b), fileOf(store, a), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertNull(read(store, a, 0, 10), "a's file holds b's page");
        assertArrayEquals(content(b, 10), read(store, b, 0, 10));
    }

    @Test
    void aFanOutDirectoryIsMadeByItsFirstPageNotByOpening() throws IOException {
        Path dir = base.resolve("c");
        DiskPageStore store = open(dir, 8);
        store.pageCount(); // waits for the opening's scan
        try (Stream<Path> made = Files.list(dir.resolve("pages"))) {
            assertEquals(List.of(), made.toList());
        }

        PageId id = id("f", 0);
        store.put(id, page(id));

        try (Stream<Path> made = Files.list(dir.resolve("pages"))) {
            assertEquals(List.of(fileOf(store, id).getParent()), made.toList());
        }
        assertArrayEquals(content(id, PAGE), read(store, id, 0, PAGE));
    }

    @Test
    void pagesSurviveACloseAndAreHitsAfterReopening() {
        Path dir = base.resolve("c");
        DiskPageStore first = open(dir, 8);
        for (int i = 0; i < 5; i++) {
            first.put(id("f", i), page(id("f", i)));
        }
        long used = first.usedBytes();
        close(first);

        DiskPageStore second = open(dir, 8);
        assertEquals(5, second.pageCount());
        assertEquals(used, second.usedBytes());
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(content(id("f", i), PAGE), read(second, id("f", i), 0, PAGE));
        }
    }

    @Test
    void pagesReadAgainLaterAreWrittenPastTheKernelsPageCacheAndOthersThroughIt() throws Exception {
        DiskPageStore store = open(base.resolve("c"), 8);
        Assumptions.assumeTrue(store.dirs().get(0).writesDirect(), "the test directory's file system takes no O_DIRECT");
        Assumptions.assumeTrue(Files.isExecutable(FINCORE), "fincore (util-linux-extra) is not installed");
        PageId whole = id("f", 0);
        PageId last = id("f", 1);
        PageId soon = id("f", 2);
        store.put(whole, page(whole), Reread.LATER);
        store.put(last, ByteBuffer.wrap(content(last, 1000)), Reread.LATER);
        store.put(soon, page(soon), Reread.SOON);

        assertEquals(0, residentBytes(fileOf(store, whole)));
        assertEquals(0, residentBytes(fileOf(store, last)));
        assertTrue(residentBytes(fileOf(store, soon)) > 0, "a page read again soon stays in the page cache");
        assertEquals(PageFile.headerLength(last, 1000) + 1000, Files.size(fileOf(store, last)),
                "the last block's padding is cut off");
        assertArrayEquals(content(whole, PAGE), read(store, whole, 0, PAGE));
        assertArrayEquals(content(last, 1000), read(store, last, 0, 1000));
        assertArrayEquals(content(soon, PAGE), read(store, soon, 0, PAGE));
    }

    @Test
    void pagesInAlignedOrUnalignedDirectMemoryAreWrittenWholeWithTheirChecksums() throws Exception {
        DiskPageStore store = open(base.resolve("c"), 8);
        Assumptions.assumeTrue(store.dirs().get(0).writesDirect(), "the test directory's file system takes no O_DIRECT");
        assertPagesInDirectMemorySurviveARestart(store, Reread.LATER);
    }

    @Test
    void pagesInDirectMemoryWrittenThroughThePageCacheKeepTheirBytesAndChecksums() throws Exception {
        assertPagesInDirectMemorySurviveARestart(open(base.resolve("c"), 8), Reread.SOON); // SOON: no O_DIRECT
    }

    /**
     * Puts pages in direct memory (a whole page, one with an unaligned tail, one that starts off a
     * block) read again {@code reread}, and reads them back, before and after a restart (which
     * checks them against their checksums).
     */
    private void assertPagesInDirectMemorySurviveARestart(DiskPageStore store, Reread reread) throws Exception {
        PageId aligned = id("f", 0);
        PageId tail = id("f", 1);
        PageId unaligned = id("f", 2);
        int tailLength = 2 * PageFile.ALIGNMENT + 100;
        store.put(aligned, direct(content(aligned, PAGE), 0), reread);
        store.put(tail, direct(content(tail, tailLength), 0), reread);
        store.put(unaligned, direct(content(unaligned, PAGE), 16), reread);

        assertArrayEquals(content(aligned, PAGE), read(store, aligned, 0, PAGE));
        assertArrayEquals(content(tail, tailLength), read(store, tail, 0, tailLength));
        assertArrayEquals(content(unaligned, PAGE), read(store, unaligned, 0, PAGE));
        assertEquals(PageFile.headerLength(tail, tailLength) + tailLength, Files.size(fileOf(store, tail)));
        close(store);
        DiskPageStore restarted = open(base.resolve("c"), 8);
        assertArrayEquals(content(aligned, PAGE), read(restarted, aligned, 0, PAGE));
        assertArrayEquals(content(tail, tailLength), read(restarted, tail, 0, tailLength));
        assertArrayEquals(content(unaligned, PAGE), read(restarted, unaligned, 0, PAGE));
        assertEquals(0, count("strata.cache.checksum.failures"));
    }

    /** {@code bytes} in direct memory {@code offset} bytes past a 4 KiB boundary, read-only as lent pages are. */
    private static ByteBuffer direct(byte[] bytes, int offset) {
        ByteBuffer memory = ByteBuffer.allocateDirect(bytes.length + offset + 2 * PageFile.ALIGNMENT)
                .alignedSlice(PageFile.ALIGNMENT);
        return memory.position(offset).slice().put(bytes).flip().asReadOnlyBuffer();
    }

    private static final Path FINCORE = Path.of("/usr/bin/fincore");

    /** How many of the file's bytes the kernel's page cache holds, by fincore(1). */
    private static long residentBytes(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(FINCORE.toString(), "--bytes", "--noheadings", "--raw", "-o", "RES",
                file.toString()).redirectErrorStream(true).start();
        String resident = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor(), resident);
        return Long.parseLong(resident);
    }

    /** Writes page {@code id} into {@code dir} with {@code header}, as an earlier Strata did; its file. */
    Path plantPage(Path dir, PageId id, ByteBuffer header) throws IOException {
        DiskPageStore layout = open(dir, 8);
        Path file = fileOf(layout, id);
        close(layout);
        Files.createDirectories(file.getParent()); // as the earlier Strata made it
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.write(new ByteBuffer[] {header.duplicate(), page(id)});
        }
        return file;
    }

    @Test
    void pagesAnEarlierStrataWroteInFormatOneAreRestoredAndRead() throws IOException {
        Path dir = base.resolve("c");
        PageId id = id("f", 3);
        Path file = plantPage(dir, id, PageFileTest.formatOne(id, page(id)));

        DiskPageStore store = open(dir, 8);
        assertEquals(1, store.pageCount());
        assertArrayEquals(content(id, PAGE), read(store, id, 0, PAGE));
        assertEquals(Files.size(file), store.usedBytes());
    }

    @Test
    void pagesAnEarlierStrataNamedOtherwiseAreMovedToTheirNamesAndRead() throws IOException {
        Path dir = base.resolve("c");
        PageId id = id("f", 3);
        Path file = plantPage(dir, id, PageFile.header(id, page(id)));
        PageId taken = id("g", 0);
        Path takenFile = plantPage(dir, taken, PageFile.header(taken, page(taken)));
        Path earlier = dir.resolve("pages/9c/9c0e7f3ad1b24f6e8a5d0c1b2e3f4a5b.page"); // a SHA-256 of the whole page id
        Files.createDirectories(earlier.getParent());
        Files.move(file, earlier);
        Path duplicate = dir.resolve("pages/9c/0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e.page");
        Files.copy(takenFile, duplicate);

        DiskPageStore store = open(dir, 8);
        assertEquals(2, store.pageCount());
        assertArrayEquals(content(id, PAGE), read(store, id, 0, PAGE));
        assertArrayEquals(content(taken, PAGE), read(store, taken, 0, PAGE));
        assertTrue(Files.exists(file), "moved to the name this Strata gives it");
        assertFalse(Files.exists(earlier));
        assertFalse(Files.exists(duplicate), "a second copy of a page already in place is deleted");
        assertEquals(0, count("strata.cache.checksum.failures"));
        DiskPageStoreTest.assertIndexMatchesFiles(store);
    }

    @Test
    void aFilesPagesShareAFanOutDirectoryInRunsOfSixtyFour() {
        DiskPageStore store = open(base.resolve("c"), 8);
        Path first = fileOf(store, id("f", 0)).getParent();
        assertEquals(first, fileOf(store, id("f", 63)).getParent());
        assertNotEquals(first, fileOf(store, id("f", 64)).getParent());
        assertEquals(fileOf(store, id("f", 64)).getParent(), fileOf(store, id("f", 127)).getParent());
    }

    @Test
    void pagesAnEarlierStrataWroteWith64KiBChunksAreReadAndCheckedByTheirOwnChunks() throws IOException {
        Path dir = base.resolve("c");
        PageId id = id("f", 3);
        ByteBuffer header = PageFile.header(id, page(id), 64 << 10);
        Path file = plantPage(dir, id, header);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(header.remaining() + (64 << 10) + 100); // in the second 64 KiB chunk
            raf.write(~content(id, PAGE)[(64 << 10) + 100]);
        }

        DiskPageStore store = open(dir, 8);
        assertArrayEquals(AbstractPageStoreTest.slice(content(id, PAGE), 8192, 4096), read(store, id, 8192, 4096),
                "a read within the intact first chunk");
        assertNull(read(store, id, (64 << 10) + 8192, 4096), "a read of other bytes of the damaged chunk");
        assertEquals(1, count("strata.cache.checksum.failures"));
    }

    /**
     * A clock that moves 1 ms each time it is read makes every read slow, as one that waits on the
     * disk is; a real disk's speed would decide by itself whether the test sees a slow read.
     */
    DiskPageStore openWithEveryReadSlow(Path dir) {
        return open(List.of(new DiskPageStore.Dir(dir, DiskPageStoreTest.quota(8))), 0.0,
                () -> clock.addAndGet(1_000_000));
    }

    @Test
    void aSlowJumpingReadOfPartOfAPageHasItsFileReadBackWholeIntoThePageCache() throws Exception {
        DiskPageStore store = openWithEveryReadSlow(base.resolve("c"));
        Assumptions.assumeTrue(store.dirs().get(0).writesDirect(), "the test directory's file system takes no O_DIRECT");
        Assumptions.assumeTrue(Files.isExecutable(FINCORE), "fincore (util-linux-extra) is not installed");
        PageId id = id("f", 0);
        store.put(id, page(id), Reread.LATER); // written past the page cache
        Path file = fileOf(store, id);
        assertEquals(0, residentBytes(file));

        ByteBuffer dst = ByteBuffer.allocate(4096);
        assertEquals(4096, store.read(id, 8192, dst, Reread.SOON));
        assertArrayEquals(AbstractPageStoreTest.slice(content(id, PAGE), 8192, 4096), dst.array());
        assertEquals(1, count("strata.cache.pages.warmed"));
        long whole = Files.size(file);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            while (residentBytes(file) < whole) {
                Thread.sleep(10);
            }
        }, "the page file is read back whole");

        store.read(id, 16384, ByteBuffer.allocate(4096), Reread.SOON);
        assertEquals(1, count("strata.cache.pages.warmed"), "not again soon after");
    }

    @Test
    void aWrittenPageLentToAJumpingReaderIsWarmedWhenTheLendingWaited() throws IOException {
        DiskPageStore store = openWithEveryReadSlow(base.resolve("c"));
        PageId id = id("f", 0);
        // Every chunk is known sound, so a region reads nothing but the header: the lending path
        // still warms the page for a reader that jumps (with this clock every read counts as slow).
        store.put(id, page(id), Reread.LATER);

        try (PageRegion region = store.region(id, 8192, 4096, Reread.SOON)) {
            assertEquals(4096, region.length());
        }
        assertEquals(1, count("strata.cache.pages.warmed"));

        PageId streamed = id("f", 1);
        store.put(streamed, page(streamed), Reread.LATER);
        try (PageRegion region = store.region(streamed, 8192, 4096, Reread.LATER)) {
            assertEquals(4096, region.length());
        }
        assertEquals(1, count("strata.cache.pages.warmed"), "a stream's region is left to the kernel's readahead");
    }

    @Test
    void aStreamsReadsOfAPageAreNotWarmed() {
        DiskPageStore store = openWithEveryReadSlow(base.resolve("c"));
        PageId id = id("f", 0);
        store.put(id, page(id), Reread.LATER);
        for (int at = 0; at < PAGE; at += 16384) {
            assertEquals(16384, store.read(id, at, ByteBuffer.allocate(16384), Reread.LATER));
        }
        assertEquals(16384, store.read(id, 0, ByteBuffer.allocate(16384)), "a plain read is no jump either");
        assertEquals(0, count("strata.cache.pages.warmed"));
    }

    @Test
    void aPageFileHeldOpenForReadsIsClosedWhenItsPageIsEvicted() throws IOException {
        DiskPageStore store = open(base.resolve("c"), 2);
        PageId first = id("f", 0);
        store.put(first, page(first));
        Path file = fileOf(store, first).toRealPath();
        assertArrayEquals(AbstractPageStoreTest.slice(content(first, PAGE), 4096, 4096), read(store, first, 4096, 4096));
        assertEquals(1, descriptorsOf(file), "held open after a read");

        store.put(id("f", 1), page(id("f", 1)));
        store.put(id("f", 2), page(id("f", 2)));
        assertFalse(Files.exists(file), "evicted");
        assertEquals(0, descriptorsOf(file), "its blocks are not kept allocated by an open descriptor");
    }

    @Test
    void theBoundOnOpenPageFilesIsAnEighthOfTheProcesssFileLimitAtMost1024() {
        Assumptions.assumeTrue(java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean, "not a Unix JVM");
        long limit = ((com.sun.management.UnixOperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
        assertEquals(Math.max(16, Math.min(1024, limit / 8)), CacheDir.openFilesBound());
    }

    /** How many of this process's file descriptors are open on {@code file} (deleted or not). */
    private static long descriptorsOf(Path file) throws IOException {
        String target = file.toString();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    return ""; // closed while listed
                }
            }).filter(link -> link.equals(target) || link.equals(target + " (deleted)")).count();
        }
    }

    /**
     * A named pipe among the page files stalls the restore (opening it for reading waits for a
     * writer), as a slow disk would: the store opens anyway, and the first read waits for the
     * restore and then finds the page restored.
     */
    @Test
    void openingDoesNotWaitForTheRestoreButTheFirstReadDoes() throws Exception {
        Path dir = base.resolve("c");
        PageId kept = id("f", 0);
        DiskPageStore first = open(dir, 8);
        first.put(kept, page(kept));
        close(first);
        Path pipe = dir.resolve("pages/00/stall.page");
        Files.createDirectories(pipe.getParent());
        Process mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor(), "mkfifo");

        DiskPageStore second = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> open(dir, 8),
                "the store's constructor waited for the stalled restore");
        assertEquals(DiskPageStoreTest.quota(8), second.capacityBytes());
        CompletableFuture<byte[]> reading = CompletableFuture.supplyAsync(() -> read(second, kept, 0, PAGE));
        try (OutputStream writer = Files.newOutputStream(pipe)) {
            writer.flush(); // the restore's open of the pipe returns; it reads nothing and drops the file
        }
        assertArrayEquals(content(kept, PAGE), reading.get(30, TimeUnit.SECONDS));
        assertEquals(1, second.pageCount());
        assertFalse(Files.exists(pipe));
    }

    @Test
    void reopeningDeletesStagingLeftoversAndFilesThatAreNotWholePages() throws IOException {
        Path dir = base.resolve("c");
        DiskPageStore first = open(dir, 8);
        PageId kept = id("f", 0);
        PageId cut = id("f", 1);
        first.put(kept, page(kept));
        first.put(cut, page(cut));
        Path cutFile = fileOf(first, cut);
        close(first);
        Files.writeString(dir.resolve("staging/abc.tmp"), "half a page");
        Files.createDirectories(dir.resolve("pages/00"));
        Files.writeString(dir.resolve("pages/00/junk.page"), "not a page");
        try (FileChannel ch = FileChannel.open(cutFile, StandardOpenOption.WRITE)) {
            ch.truncate(1000);
        }
        DiskPageStore second = open(dir, 8);
        assertEquals(1, second.pageCount());
        assertFalse(Files.exists(dir.resolve("staging/abc.tmp")));
        assertFalse(Files.exists(dir.resolve("pages/00/junk.page")));
        assertFalse(Files.exists(cutFile));
        assertEquals(2, count("strata.cache.checksum.failures"));
    }

    @Test
    void reopeningWithASmallerQuotaEvictsDownToIt() {
        Path dir = base.resolve("c");
        DiskPageStore first = open(dir, 8);
        for (int i = 0; i < 8; i++) {
            first.put(id("f", i), page(id("f", i)));
        }
        close(first);
        DiskPageStore second = open(dir, 3);
        assertEquals(3, second.pageCount());
        assertTrue(second.usedBytes() <= second.capacityBytes());
    }

    @Test
    void pagesOfAnotherPageSizeAreKeptApartAndAgeOut() {
        Path dir = base.resolve("c");
        DiskPageStore first = open(dir, 8);
        PageId small = new PageId("f", "v1", 0, PAGE / 2);
        first.put(small, ByteBuffer.wrap(content(small, PAGE / 2)));
        close(first);
        DiskPageStore second = open(dir, 8);
        assertEquals(-1, second.read(id("f", 0), 0, ByteBuffer.allocate(10)), "never read as a page of another size");
        for (int i = 0; i < 9; i++) {
            second.put(id("g", i), page(id("g", i)));
        }
        assertEquals(-1, second.length(small), "the old-size page was evicted first");
    }

    @Test
    void aDirectoryThatCannotBeCreatedIsBypassedWithOneWarningAndRetriedLater() throws IOException {
        Path blocker = Files.writeString(base.resolve("a-file"), "x");
        DiskPageStore store = open(blocker.resolve("cache"), 8);
        assertFalse(store.usable());
        for (int i = 0; i < 3; i++) {
            assertFalse(store.put(id("f", i), page(id("f", i))));
            assertEquals(-1, store.read(id("f", i), 0, ByteBuffer.allocate(10)));
        }
        assertEquals(1, warnings(), "one warning: " + logs.list);
        assertTrue(logs.list.get(0).getFormattedMessage().contains(blocker.resolve("cache").toString()));

        Files.delete(blocker);
        assertFalse(store.put(id("f", 0), page(id("f", 0))), "not retried before its time");
        clock.addAndGet(CacheDir.RETRY.toNanos());
        assertTrue(store.put(id("f", 0), page(id("f", 0))), "usable once the problem is gone");
        assertEquals(1, warnings());
    }

    @Test
    void aWriteFailureMakesTheDirectoryUnusableWithOneWarningUntilItsRetry() throws IOException {
        Path dir = base.resolve("c");
        DiskPageStore store = open(dir, 8);
        store.put(id("f", 0), page(id("f", 0)));
        Path staging = dir.resolve("staging");
        Files.delete(staging);
        Files.writeString(staging, "not a directory any more"); // like a disk gone read-only: writes fail
        assertFalse(store.put(id("f", 1), page(id("f", 1))));
        assertFalse(store.accepting());
        assertFalse(store.put(id("f", 2), page(id("f", 2))));
        assertEquals(1, warnings(), "one warning: " + logs.list);
        assertArrayEquals(content(id("f", 0), PAGE), read(store, id("f", 0), 0, PAGE), "stored pages still read");

        Files.delete(staging);
        clock.addAndGet(CacheDir.RETRY.toNanos());
        assertTrue(store.accepting(), "retried and usable again");
        assertTrue(store.put(id("f", 1), page(id("f", 1))));
    }

    @Test
    void aDirectoryInUseByAnotherStoreIsBypassed() {
        Path dir = base.resolve("c");
        DiskPageStore first = open(dir, 8);
        DiskPageStore second = open(dir, 8);
        assertTrue(first.usable());
        assertFalse(second.usable());
        assertFalse(second.put(id("f", 0), page(id("f", 0))));
        assertTrue(first.put(id("f", 0), page(id("f", 0))));
        opened.remove(second);
        second.close();
    }

    @Test
    void theFreeSpaceFloorEvictsPagesAndThenDeclinesThem() {
        long[] usable = {200L << 20};
        long total = 1000L << 20;
        space = dir -> new DiskSpace.Usage(usable[0], total);
        DiskPageStore store = open(List.of(new DiskPageStore.Dir(base.resolve("c"), DiskPageStoreTest.quota(8))), 0.1);
        for (int i = 0; i < 4; i++) {
            assertTrue(store.put(id("f", i), page(id("f", i))));
        }
        usable[0] = (100L << 20) + PAGE; // another program took space: less than a page (with header) above the floor
        assertTrue(store.put(id("f", 10), page(id("f", 10))));
        assertEquals(4, store.pageCount(), "room made by evicting rather than going below the floor");
        usable[0] = 50L << 20; // far below the floor
        assertFalse(store.put(id("f", 11), page(id("f", 11))));
        assertEquals(0, store.pageCount(), "every page evicted trying to get back above the floor");
        assertEquals(1, warnings(), "one warning that the directory is full: " + logs.list);
    }

    @Test
    void eachDirectoryKeepsItsOwnQuota() {
        List<DiskPageStore.Dir> dirs = List.of(new DiskPageStore.Dir(base.resolve("a"), DiskPageStoreTest.quota(2)),
                new DiskPageStore.Dir(base.resolve("b"), DiskPageStoreTest.quota(3)));
        DiskPageStore store = open(dirs, 0.0);
        for (int i = 0; i < 40; i++) {
            store.put(id("f", i), page(id("f", i)));
        }
        for (CacheDir dir : store.dirs()) {
            assertTrue(dir.usedBytes() <= dir.quota(), dir + " over quota");
            assertTrue(dir.pageCount() > 0, dir + " holds pages");
        }
        assertEquals(5, store.pageCount());
    }

    @Test
    void aMissingCacheDirectoryIsCreated() {
        DiskPageStore store = open(base.resolve("deep/er/cache"), 8);
        assertTrue(store.usable());
        assertTrue(Files.isDirectory(base.resolve("deep/er/cache/pages")));
    }
}
