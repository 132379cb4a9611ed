package io.strata.hadoop;

import io.strata.core.ufs.s3.S3TestServer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** Over S3 (S3Proxy), a second read is served by the page cache, and the file system's IOStatistics say so. */
class S3PageCacheStatisticsTest {
    private static final int PAGES = 3;

    @Test
    void theSecondReadOfAnObjectComesFromThePageCache() throws Exception {
        TestVolume volume = TestVolume.s3("cache-stats");
        byte[] data = new byte[PAGES << 20];
        Arrays.fill(data, (byte) 7);
        S3TestServer.shared().put(volume.source(), "table/part-0.parquet", data); // written by another tool

        try (FileSystem fs = volume.newClient()) {
            readAll(fs, new Path("/table/part-0.parquet"), data.length);
            long fetched = counter(fs, VolumeStatistics.UFS_BYTES_READ);
            awaitFills(fs); // pages are stored in the background; until then a read joins their fetch
            long hits = counter(fs, VolumeStatistics.CACHE_HITS);
            long served = counter(fs, VolumeStatistics.CACHE_BYTES_READ);

            readAll(fs, new Path("/table/part-0.parquet"), data.length);

            assertThat(fetched).isGreaterThanOrEqualTo(data.length);
            assertThat(counter(fs, VolumeStatistics.UFS_BYTES_READ)).isEqualTo(fetched);
            assertThat(counter(fs, VolumeStatistics.CACHE_HITS) - hits).isGreaterThanOrEqualTo(PAGES);
            assertThat(counter(fs, VolumeStatistics.CACHE_BYTES_READ) - served).isEqualTo(data.length);
        }
    }

    private static void readAll(FileSystem fs, Path file, int length) throws IOException {
        try (FSDataInputStream in = fs.open(file)) {
            in.readFully(0, new byte[length]);
        }
    }

    /**
     * Waits until the background fills are done: at least one per page, and none for a while.
     * The counter sums the tiers (a page stored in memory and on disk counts twice), so reaching
     * PAGES alone can leave a page's fill still under way, and the second read joining it.
     */
    private static void awaitFills(FileSystem fs) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        long fills = counter(fs, VolumeStatistics.CACHE_FILLS);
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(20);
            long now = counter(fs, VolumeStatistics.CACHE_FILLS);
            if (now != fills) {
                fills = now;
                quietSince = System.nanoTime();
            } else if (fills >= PAGES && System.nanoTime() - quietSince >= QUIET_NANOS) {
                return;
            }
        }
    }

    private static final long QUIET_NANOS = 500_000_000L;

    private static long counter(FileSystem fs, String name) {
        return IOStatisticsSupport.retrieveIOStatistics(fs).counters().getOrDefault(name, -1L);
    }
}
