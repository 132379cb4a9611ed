package io.strata.jmh;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.CacheMetrics;
import io.strata.core.cache.DiskPageStore;
import io.strata.core.cache.DiskSpace;
import io.strata.core.cache.PageId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How long a mount takes to find its cached pages again: opening a cache directory of 100,000
 * pages, whose index is rebuilt by reading every page file's header. {@code cold} drops the
 * kernel's caches before each open (needs root), as after a reboot; {@code warm} does not, as
 * after a daemon restart.
 *
 * <p>Run: {@code java -jar jmh/target/strata-benchmarks.jar PageStoreRestoreBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class PageStoreRestoreBenchmark {
    @Param("100000")
    public int pages;

    @Param({"warm", "cold"})
    public String caches;

    private Path dir;
    private long quota;

    @Setup(Level.Trial)
    public void fill() throws IOException {
        dir = Files.createTempDirectory("strata-jmh-restore");
        int pageSize = 4096;
        quota = (long) pages * (pageSize + 200);
        ByteBuffer data = ByteBuffer.allocate(pageSize);
        try (DiskPageStore store = open()) {
            for (int i = 0; i < pages; i++) {
                store.put(new PageId("volume/" + (i / 1000), "1234-1700000000000000000", i % 1000, pageSize), data);
            }
        }
    }

    private DiskPageStore open() {
        return new DiskPageStore(List.of(new DiskPageStore.Dir(dir.resolve("cache"), quota)), 0.0, "lru",
                new CacheMetrics(new SimpleMeterRegistry()), DiskSpace.SYSTEM, System::nanoTime);
    }

    @Setup(Level.Iteration)
    public void dropCaches() throws IOException {
        if (caches.equals("cold")) {
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
        }
    }

    @Benchmark
    public long restore() {
        try (DiskPageStore store = open()) {
            if (store.pageCount() != pages) {
                throw new IllegalStateException("restored " + store.pageCount() + " of " + pages + " pages");
            }
            return store.pageCount();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
