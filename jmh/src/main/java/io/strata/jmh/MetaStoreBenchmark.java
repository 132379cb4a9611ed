package io.strata.jmh;

import io.strata.meta.Dentry;
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
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The metastore operations behind every FUSE lookup and create, per engine, side by side.
 *
 * <p>Run: {@code ./mvnw -B -q -pl jmh -am package -DskipTests && java -jar jmh/target/strata-benchmarks.jar
 * MetaStoreBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class MetaStoreBenchmark {
    private static final int FILES = 10_000;

    @Param({"memory", "sqlite"})
    public String engine;

    private Path dir;
    private MetaStore store;
    private long directory;
    private long created;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("strata-jmh");
        store = MetaStores.open(engine.equals("memory") ? "memory://" : "sqlite://" + dir.resolve("meta.db"));
        long now = System.currentTimeMillis() * 1_000_000L;
        directory = store.create(Inode.ROOT, "dir", NewInode.directory(0755, 0, 0, now)).ino();
        for (int i = 0; i < FILES; i++) {
            store.create(directory, "f" + i, NewInode.file(0644, 0, 0, now));
        }
        created = store.create(Inode.ROOT, "new", NewInode.directory(0755, 0, 0, now)).ino();
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

    /** A path component lookup plus its attributes: what one FUSE getattr costs below the caches. */
    @Benchmark
    public Inode lookupAndGetattr() throws IOException {
        next = (next + 7919) % FILES;
        Dentry entry = store.lookup(directory, "f" + next).orElseThrow();
        return store.getInode(entry.ino());
    }

    /** One file creation: a transaction over dentry, inode and counters. */
    @Benchmark
    public Inode create() throws IOException {
        return store.create(created, "c" + (next++), NewInode.file(0644, 0, 0, 1L));
    }
}
