package io.strata.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Spark 4 job in local mode on {@code strata://}, as a user runs one: the volume made by
 * {@code strata format} over a bucket (S3Proxy in this JVM), the shaded adapter jar on Spark's
 * class path and found through its service file, its settings as {@code spark.hadoop.fs.strata.*}.
 * The job writes a Parquet table; reads with a filter and an aggregate give the exact result;
 * a second read comes from the page store; and the table is the same through a FUSE mount of
 * the same metastore ({@code bin/strata mount}, its own JVM).
 *
 * <p>Every {@code strata://NAME} of one metastore is the same volume; the names only pick
 * settings ({@code fs.strata.NAME.*}). Each reader here has its own name and so its own, empty
 * page cache directory: the writer's pages (cached on write) never answer its first read.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SparkJobTest {
    private static final String BUCKET = "warehouse";
    private static final String TABLE = "/tables/events";
    private static final long ROWS = 100_000;
    private static final int FILES = 4;
    private static final long PAGE_SIZE = 1 << 20; // local_cache_page_size's default
    private static final Duration FILL_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path base;
    static CountingS3Server s3;
    static String metaUrl;
    static SparkSession spark;

    @BeforeAll
    static void formatTheVolumeAndWriteTheTable() throws Exception {
        s3 = CountingS3Server.start();
        s3.createBucket(BUCKET);
        metaUrl = "sqlite://" + base.resolve("meta.db");
        // A volume for Spark alone: made without a mount, as juicefs format does.
        StrataCommand.run(base, secretEnvironment(), "format", metaUrl, "s3://" + BUCKET, "-o", optionList(s3.options()))
                .assertOk();

        SparkSession.Builder builder = SparkSession.builder()
                .master("local[2]")
                .appName("strata-spark-job-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.local.dir", base.resolve("spark-local").toString())
                .config("spark.sql.warehouse.dir", base.resolve("spark-warehouse").toString())
                .config("spark.hadoop.fs.strata.meta", metaUrl)
                .config("spark.hadoop.fs.strata.state_dir", base.resolve("hadoop-state").toString())
                .config("spark.hadoop.fs.strata.s3a.secretKey", CountingS3Server.SECRET_KEY);
        s3.options().forEach((key, value) -> builder.config("spark.hadoop.fs.strata." + key, value));
        for (String name : List.of("writer", "reader", "cached")) {
            builder.config("spark.hadoop.fs.strata." + name + ".local_data_cache", base.resolve("cache-" + name).toString());
        }
        spark = builder.getOrCreate();

        spark.range(0, ROWS, 1, FILES)
                .selectExpr("id", "id % 10 AS k", "id * 3 AS v", "concat('event-', id) AS name")
                .write().parquet("strata://writer" + TABLE);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        try {
            if (spark != null) {
                spark.stop();
                SparkSession.clearActiveSession();
                SparkSession.clearDefaultSession();
            }
            // The strata:// clients, closed here rather than by Hadoop's shutdown hook: closed at JVM exit,
            // a volume over S3 waited ~20 s in its session's last PUT (docs/PERFORMANCE.md, issue 12).
            FileSystem.closeAll();
        } finally {
            if (s3 != null) {
                s3.close();
            }
        }
    }

    @Test
    void aFilteredAggregateOfTheTableWrittenThroughStrataIsExact() {
        Row row = aggregate("strata://reader" + TABLE);

        assertEquals(expectedCount(), row.getLong(0));
        assertEquals(expectedSum(), row.getLong(1));
    }

    @Test
    void theSecondReadIsServedFromThePageStoreWithNoGetFromS3() throws IOException {
        String table = "strata://cached" + TABLE;
        long getsBefore = s3.gets();
        assertEquals(expectedCount(), aggregate(table).getLong(0));
        assertTrue(s3.gets() > getsBefore, "the first read, from an empty cache, read from S3");
        awaitCachedPages(base.resolve("cache-cached"), expectedPages(table));

        IOStatistics first = snapshot("cached");
        long getsAfterFirst = s3.gets();
        Row again = aggregate(table);
        IOStatistics second = snapshot("cached");

        assertEquals(expectedSum(), again.getLong(1));
        assertEquals(getsAfterFirst, s3.gets(), "GET requests S3 served during the second read");
        assertEquals(counter(first, "strata_cache_fetches"), counter(second, "strata_cache_fetches"),
                "pages fetched from the under storage during the second read");
        assertTrue(counter(second, "strata_cache_hits") > counter(first, "strata_cache_hits"),
                "page store hits: " + counter(first, "strata_cache_hits") + " -> " + counter(second, "strata_cache_hits"));
    }

    @Test
    void theTableIsListedAndReadThroughAFuseMountOfTheSameMetastore() throws Exception {
        Path mountPoint = Files.createDirectories(base.resolve("mnt"));
        Map<String, String> env = secretEnvironment();
        String options = optionList(s3.options()) + ",meta=" + metaUrl + ",state_dir=" + base.resolve("mount-state");
        StrataCommand.run(base, env, "mount", "s3://" + BUCKET, mountPoint.toString(), "-o", options).assertOk();
        try {
            FileSystem strata = fileSystem("reader");
            List<String> inVolume = Arrays.stream(strata.listStatus(new org.apache.hadoop.fs.Path(TABLE)))
                    .map(status -> status.getPath().getName() + " " + status.getLen()).sorted().toList();
            List<String> inMount;
            try (Stream<Path> files = Files.list(mountPoint.resolve(TABLE.substring(1)))) {
                inMount = files.map(file -> file.getFileName() + " " + size(file)).sorted().toList();
            }
            assertEquals(inVolume, inMount);
            assertEquals(FILES, inMount.stream().filter(entry -> entry.split(" ")[0].endsWith(".parquet")).count(),
                    "part files: " + inMount);

            Row row = aggregate(mountPoint.resolve(TABLE.substring(1)).toUri().toString());
            assertEquals(expectedCount(), row.getLong(0));
            assertEquals(expectedSum(), row.getLong(1));
        } finally {
            StrataCommand.unmount(base, env, mountPoint);
        }
    }

    /** {@code SELECT count(*), sum(v) FROM table WHERE k = 3}. */
    private static Row aggregate(String table) {
        return spark.read().parquet(table).where("k = 3").agg(count("*"), sum("v")).first();
    }

    private static long expectedCount() {
        return LongStream.range(0, ROWS).filter(id -> id % 10 == 3).count();
    }

    private static long expectedSum() {
        return LongStream.range(0, ROWS).filter(id -> id % 10 == 3).map(id -> id * 3).sum();
    }

    /** The pages of the table's data files: what a full read of them leaves in the page store. */
    private static long expectedPages(String table) throws IOException {
        FileSystem fs = fileSystem(URI.create(table).getAuthority());
        long pages = 0;
        for (FileStatus status : fs.listStatus(new org.apache.hadoop.fs.Path(TABLE))) {
            pages += (status.getLen() + PAGE_SIZE - 1) / PAGE_SIZE;
        }
        return pages;
    }

    /**
     * Waits until the pages the first read fetched are stored (fills run in the background after a
     * read returns; every page stored goes to the disk tier, which keeps one file per page).
     */
    private static void awaitCachedPages(Path cacheDir, long pages) throws IOException {
        long deadline = System.nanoTime() + FILL_TIMEOUT.toNanos();
        long stored;
        while ((stored = pageFiles(cacheDir)) < pages) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(stored + " of " + pages + " pages in " + cacheDir + " after " + FILL_TIMEOUT);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    private static long pageFiles(Path cacheDir) throws IOException {
        Path pages = cacheDir.resolve("pages");
        if (!Files.isDirectory(pages)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(pages)) {
            return files.filter(file -> file.toString().endsWith(".page")).count();
        }
    }

    /** The adapter's statistics now, copied (the live view keeps counting). */
    private static IOStatistics snapshot(String volumeName) throws IOException {
        return IOStatisticsSupport.snapshotIOStatistics(IOStatisticsSupport.retrieveIOStatistics(fileSystem(volumeName)));
    }

    private static long counter(IOStatistics statistics, String key) {
        Long value = statistics.counters().get(key);
        if (value == null) {
            throw new AssertionError("no counter " + key + " in " + statistics.counters().keySet());
        }
        return value;
    }

    /** The file system Spark's tasks used for {@code strata://NAME} (local mode: one JVM, one cache of them). */
    private static FileSystem fileSystem(String volumeName) throws IOException {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        return FileSystem.get(URI.create("strata://" + volumeName + "/"), conf);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The secret key as bin/strata takes it: from the environment, never on a command line. */
    private static Map<String, String> secretEnvironment() {
        return Map.of("STRATA_S3A_SECRETKEY", CountingS3Server.SECRET_KEY);
    }

    private static String optionList(Map<String, String> options) {
        return options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
