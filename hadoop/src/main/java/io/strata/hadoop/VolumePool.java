package io.strata.hadoop;

import io.strata.core.concurrent.DaemonThreads;
import org.apache.hadoop.conf.Configuration;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads that run vectored reads for one {@code strata://} file system, and how reads are
 * merged (the Hadoop-side settings, under the same prefix as S3A's):
 * {@code fs.strata.vectored.read.min.seek.size} (ranges nearer than this are read as one; default
 * 1 MiB, the page size, since the cache fetches whole pages anyway),
 * {@code fs.strata.vectored.read.max.merged.size} (default 16 MiB) and
 * {@code fs.strata.vectored.active.ranged.reads} (threads; default 16).
 */
final class VolumePool implements AutoCloseable {
    static final String MIN_SEEK_KEY = HadoopOptions.PREFIX + "vectored.read.min.seek.size";
    static final String MAX_MERGED_KEY = HadoopOptions.PREFIX + "vectored.read.max.merged.size";
    static final String THREADS_KEY = HadoopOptions.PREFIX + "vectored.active.ranged.reads";

    private final ExecutorService threads;
    private final VectoredReads vectoredReads;

    private VolumePool(int threadCount, int minSeek, int maxMerged) {
        this.threads = Executors.newFixedThreadPool(threadCount, DaemonThreads.numbered("strata-vectored-read"));
        this.vectoredReads = new VectoredReads(threads, minSeek, maxMerged);
    }

    static VolumePool from(Configuration conf) {
        int minSeek = (int) conf.getLongBytes(MIN_SEEK_KEY, 1 << 20);
        int maxMerged = (int) conf.getLongBytes(MAX_MERGED_KEY, 16 << 20);
        int threadCount = conf.getInt(THREADS_KEY, 16);
        if (minSeek < 0 || maxMerged <= 0 || threadCount <= 0) {
            throw new IllegalArgumentException(MIN_SEEK_KEY + ", " + MAX_MERGED_KEY + " and " + THREADS_KEY
                    + " must be positive");
        }
        return new VolumePool(threadCount, minSeek, maxMerged);
    }

    VectoredReads vectoredReads() {
        return vectoredReads;
    }


    @Override
    public void close() {
        threads.shutdownNow();
    }
}
