package io.strata.jmh;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.CacheMetrics;
import io.strata.core.cache.DiskPageStore;
import io.strata.core.cache.DiskSpace;
import io.strata.core.cache.MemoryPageStore;
import io.strata.core.cache.PageId;
import io.strata.core.cache.PageStore;
import io.strata.core.cache.evict.EvictionPolicies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The page store's hot paths, each beside its baseline in the same run: a memory-tier hit of a
 * whole 1 MiB page against a plain direct-buffer copy of 1 MiB (from as many distinct buffers as
 * the store holds pages, so both touch the same amount of memory), a disk-tier hit (open, header,
 * read, CRC32C of every chunk) against a plain FileChannel read of the same bytes from the same
 * directory (opened per read, as the tier does, and kept open), puts with and without eviction,
 * and hits from 2 and 8 threads. Scores are operations (pages) per second.
 *
 * <p>Run: {@code ./mvnw -B -q -pl jmh -am package -DskipTests && java -jar jmh/target/strata-benchmarks.jar
 * PageStoreBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class PageStoreBenchmark {
    static final int PAGE = 1 << 20;
    static final int PAGES = 32;

    private Path dir;
    private MemoryPageStore memory;
    private DiskPageStore disk;
    private MemoryPageStore memoryFull;
    private DiskPageStore diskFull;
    private ByteBuffer page;
    /** The baseline's sources: as many distinct 1 MiB buffers as the store holds pages, the same working set. */
    private ByteBuffer[] sources;
    private Path[] baselineFiles;
    private FileChannel[] baselineChannels;
    private long nextPut;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("strata-jmh-pages");
        CacheMetrics metrics = new CacheMetrics(new SimpleMeterRegistry());
        byte[] bytes = new byte[PAGE];
        new Random(1).nextBytes(bytes);
        page = ByteBuffer.allocateDirect(PAGE).put(bytes).flip();
        sources = new ByteBuffer[PAGES];
        for (int i = 0; i < PAGES; i++) {
            sources[i] = ByteBuffer.allocateDirect(PAGE).put(bytes).flip();
        }
        long pageFile = PAGE + 200L;
        memory = new MemoryPageStore(PAGE, 2L * PAGES * PAGE, EvictionPolicies.create("lru", 0), metrics);
        disk = new DiskPageStore(List.of(new DiskPageStore.Dir(dir.resolve("cache"), 2 * PAGES * pageFile)), 0.0,
                "lru", metrics, DiskSpace.SYSTEM, System::nanoTime);
        memoryFull = new MemoryPageStore(PAGE, (long) PAGES * PAGE, EvictionPolicies.create("lru", 0), metrics);
        diskFull = new DiskPageStore(List.of(new DiskPageStore.Dir(dir.resolve("churn"), PAGES * pageFile)), 0.0,
                "lru", metrics, DiskSpace.SYSTEM, System::nanoTime);
        Files.createDirectories(dir.resolve("cache/baseline"));
        baselineFiles = new Path[PAGES];
        baselineChannels = new FileChannel[PAGES];
        for (int i = 0; i < PAGES; i++) {
            memory.put(id(i), page);
            disk.put(id(i), page);
            memoryFull.put(id(i), page);
            diskFull.put(id(i), page);
            baselineFiles[i] = Files.write(dir.resolve("cache/baseline/" + i + ".bin"), bytes);
            baselineChannels[i] = FileChannel.open(baselineFiles[i], StandardOpenOption.READ);
        }
        nextPut = PAGES;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        for (FileChannel channel : baselineChannels) {
            channel.close();
        }
        for (PageStore store : new PageStore[] {memory, disk, memoryFull, diskFull}) {
            store.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static PageId id(long i) {
        return new PageId("volume/1", "v1", i, PAGE);
    }

    /** Per thread: the destination (a direct buffer, like FUSE's) and which page to read next. */
    @State(Scope.Thread)
    public static class Reader {
        final ByteBuffer dst = ByteBuffer.allocateDirect(PAGE);
        int next = new Random(Thread.currentThread().getId()).nextInt(PAGES);

        int page() {
            next = (next + 1) % PAGES;
            return next;
        }

        ByteBuffer clear() {
            return dst.clear();
        }
    }

    // ---- memory tier hit vs plain copy ----------------------------------------------------

    @Benchmark
    public int memoryHit(Reader r) {
        return memory.read(id(r.page()), 0, r.clear());
    }

    @Benchmark
    public ByteBuffer baselineCopy(Reader r) {
        return r.clear().put(sources[r.page()].duplicate());
    }

    // ---- disk tier hit vs plain FileChannel read ------------------------------------------

    @Benchmark
    public int diskHit(Reader r) {
        return disk.read(id(r.page()), 0, r.clear());
    }

    @Benchmark
    public int baselineFileChannelOpenRead(Reader r) throws IOException {
        try (FileChannel channel = FileChannel.open(baselineFiles[r.page()], StandardOpenOption.READ)) {
            return readFully(channel, r.clear());
        }
    }

    @Benchmark
    public int baselineFileChannelRead(Reader r) throws IOException {
        return readFully(baselineChannels[r.page()], r.clear());
    }

    private static int readFully(FileChannel channel, ByteBuffer dst) throws IOException {
        int total = 0;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    // ---- puts ------------------------------------------------------------------------------

    /** A put into a tier with room (the page is deleted again, so the tier never fills). */
    @Benchmark
    public boolean memoryPut() {
        PageId id = id(1_000_000 + (nextPut++ % 2));
        boolean stored = memory.put(id, page);
        memory.delete(id);
        return stored;
    }

    @Benchmark
    public boolean diskPut() {
        PageId id = id(1_000_000 + (nextPut++ % 2));
        boolean stored = disk.put(id, page);
        disk.delete(id);
        return stored;
    }

    /** Eviction under churn: every put into the full tier evicts its least recently used page. */
    @Benchmark
    public boolean memoryPutEvicting() {
        return memoryFull.put(id(nextPut++), page);
    }

    @Benchmark
    public boolean diskPutEvicting() {
        return diskFull.put(id(nextPut++), page);
    }

    // ---- concurrent readers ----------------------------------------------------------------

    @Benchmark
    @Threads(2)
    public int memoryHit2Threads(Reader r) {
        return memoryHit(r);
    }

    @Benchmark
    @Threads(2)
    public ByteBuffer baselineCopy2Threads(Reader r) {
        return baselineCopy(r);
    }

    @Benchmark
    @Threads(8)
    public int memoryHit8Threads(Reader r) {
        return memoryHit(r);
    }

    @Benchmark
    @Threads(8)
    public ByteBuffer baselineCopy8Threads(Reader r) {
        return baselineCopy(r);
    }

    @Benchmark
    @Threads(2)
    public int diskHit2Threads(Reader r) {
        return diskHit(r);
    }

    @Benchmark
    @Threads(2)
    public int baselineFileChannelOpenRead2Threads(Reader r) throws IOException {
        return baselineFileChannelOpenRead(r);
    }

    @Benchmark
    @Threads(8)
    public int diskHit8Threads(Reader r) {
        return diskHit(r);
    }

    @Benchmark
    @Threads(8)
    public int baselineFileChannelOpenRead8Threads(Reader r) throws IOException {
        return baselineFileChannelOpenRead(r);
    }
}
