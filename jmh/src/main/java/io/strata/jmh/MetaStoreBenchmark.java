package io.strata.jmh;

import com.github.benmanes.caffeine.cache.Ticker;
import io.strata.client.metacache.CachedMetaStore;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The metastore operations behind FUSE calls, per engine, side by side in one run: create, stat
 * (a lookup plus its inode, with the heap metadata cache hit and missed), readdir of a 10k-entry
 * directory, and rename.
 *
 * <p>Engines: {@code memory}, {@code sqlite} (a file in a temp dir), and {@code postgres} /
 * {@code mariadb} / {@code redis} at the URLs in the system properties
 * {@code strata.bench.postgres}, {@code strata.bench.mariadb} and {@code strata.bench.redis}
 * ({@code bench/metadata-bench.sh} starts the three servers and sets them).
 * Each trial works in directories of its own, so trials can share one server database.
 *
 * <p>Run: {@code bench/metadata-bench.sh}, or {@code java -jar jmh/target/strata-benchmarks.jar
 * MetaStoreBenchmark -p engine=memory,sqlite}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class MetaStoreBenchmark {
    private static final int FILES = 10_000;
    /** Entries per page of a listing, as the client reads them. */
    private static final int PAGE = 1000;

    @Param({"memory", "sqlite", "postgres", "mariadb", "redis"})
    public String engine;

    private Path dir;
    private MetaStore store;
    private CachedMetaStore cached;
    private long directory;
    private long scratch;
    private int next;
    private int renames;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("strata-jmh");
        store = MetaStores.open(url());
        long now = System.currentTimeMillis() * 1_000_000L;
        String trial = Long.toString(System.nanoTime(), 36);
        directory = store.create(Inode.ROOT, "dir-" + trial, NewInode.directory(0755, 0, 0, now)).ino();
        for (int i = 0; i < FILES; i++) {
            store.create(directory, "f" + i, NewInode.file(0644, 0, 0, now));
        }
        scratch = store.create(Inode.ROOT, "scratch-" + trial, NewInode.directory(0755, 0, 0, now)).ino();
        store.create(scratch, "r0", NewInode.file(0644, 0, 0, now));
        cached = new CachedMetaStore(store, 2 * FILES + 10, Duration.ofHours(1), Duration.ofHours(1),
                Ticker.systemTicker());
        for (int i = 0; i < FILES; i++) { // warm every entry once, so the cached variant measures hits
            stat(cached, i);
        }
    }

    private String url() {
        return switch (engine) {
            case "memory" -> "memory://";
            case "sqlite" -> "sqlite://" + dir.resolve("meta.db");
            case "postgres", "mariadb", "redis" -> {
                String url = System.getProperty("strata.bench." + engine);
                if (url == null) {
                    throw new IllegalStateException("set -Dstrata.bench." + engine + "=URL (bench/metadata-bench.sh does)");
                }
                yield url;
            }
            default -> throw new IllegalArgumentException("unknown engine " + engine);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private Inode stat(MetaStore meta, int i) throws IOException {
        Dentry entry = meta.lookup(directory, "f" + i).orElseThrow();
        return meta.getInode(entry.ino());
    }

    /** One file creation: a transaction over dentry, inode and counters. */
    @Benchmark
    public Inode create() throws IOException {
        return store.create(scratch, "c" + (next++), NewInode.file(0644, 0, 0, 1L));
    }

    /** A name lookup plus its attributes, from the engine. */
    @Benchmark
    public Inode statMiss() throws IOException {
        next = (next + 7919) % FILES;
        return stat(store, next);
    }

    /** The same, answered by the heap metadata cache. */
    @Benchmark
    public Inode statHit() throws IOException {
        next = (next + 7919) % FILES;
        return stat(cached, next);
    }

    /** All 10k entries of one directory, in pages of 1,000 as the client reads them. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.SECONDS)
    public int readdir10k() throws IOException {
        return readAll(after -> store.readdir(directory, after, PAGE), Dentry::name);
    }

    /** The same with each entry's inode, as READDIRPLUS and a directory's look-ahead read them. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.SECONDS)
    public int readdirPlus10k() throws IOException {
        return readAll(after -> store.readdirPlus(directory, after, PAGE), entry -> entry.dentry().name());
    }

    /** A page of a directory after a name (null: its first). */
    @FunctionalInterface
    private interface PageRead<T> {
        List<T> after(String name) throws IOException;
    }

    /** Reads pages until one comes back short; the number of entries read. */
    private static <T> int readAll(PageRead<T> read, Function<T, String> nameOf) throws IOException {
        int count = 0;
        String after = null;
        List<T> page;
        do {
            page = read.after(after);
            count += page.size();
            if (!page.isEmpty()) {
                after = nameOf.apply(page.get(page.size() - 1));
            }
        } while (page.size() == PAGE);
        return count;
    }

    /** A rename within a directory: entries, primary link and parent times in one transaction. */
    @Benchmark
    public Object rename() throws IOException {
        int from = renames++;
        return store.rename(scratch, "r" + from, scratch, "r" + renames, 1L);
    }
}
