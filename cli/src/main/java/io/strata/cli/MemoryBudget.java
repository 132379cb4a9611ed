package io.strata.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.strata.core.cache.CacheOptions;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.Options;
import io.strata.core.readahead.ReadaheadOptions;
import io.strata.core.ufs.s3.S3Options;
import io.strata.fuse.FuseOptions;

import java.lang.management.ManagementFactory;
import java.net.URI;

/**
 * What a mount's daemon may hold in memory: the JVM's two limits and the parts of the volume's
 * options that fill them, so the mount can refuse a memory tier that would not fit and say at
 * mount what the process is bounded by.
 *
 * @param heapMax the JVM's -Xmx
 * @param directMax the JVM's -XX:MaxDirectMemorySize (the heap's size when not set)
 * @param memoryTier the page store's memory tier (direct)
 * @param fuseBuffers the FUSE workers' buffers (direct): one per worker, for a request and then its reply
 * @param readahead the readahead's buffer budget (heap, for parts not kept in the S3 client's pool)
 * @param s3Pool the CRT-based S3 client's buffer pool (direct), where readahead parts are kept
 *     whole; 0 for a directory or {@code s3.client=netty}
 */
record MemoryBudget(long heapMax, long directMax, long memoryTier, long fuseBuffers, long readahead, long s3Pool) {
    /** Direct memory kept for the S3 client's (Netty's) buffers. */
    static final long CLIENT_DIRECT = 32L << 20;

    /** The budget of a mount of {@code source} with {@code options}, in this JVM. */
    static MemoryBudget of(URI source, Options options) {
        long fuse = FuseOptions.KERNEL.equals(options.get(FuseOptions.TRANSPORT))
                ? FuseOptions.workers(options) * FuseOptions.workerBufferBytes(options) : 0;
        long pool = "s3".equalsIgnoreCase(source.getScheme()) && options.get(S3Options.CLIENT) == S3Options.Client.CRT
                ? S3Options.crtBufferPoolBytes(options) : 0;
        return new MemoryBudget(Runtime.getRuntime().maxMemory(), maxDirectMemory(),
                options.get(CacheOptions.MEMORY_SIZE).bytes(), fuse, options.get(ReadaheadOptions.BUFFER_SIZE).bytes(),
                pool);
    }

    private static long maxDirectMemory() {
        String value = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxDirectMemorySize").getValue();
        long bytes = Long.parseLong(value);
        return bytes > 0 ? bytes : Runtime.getRuntime().maxMemory(); // 0: the JVM's default, the max heap
    }

    /** The direct memory the options ask for. */
    long directNeeded() {
        return memoryTier + fuseBuffers + s3Pool + CLIENT_DIRECT;
    }

    /** Null if the options fit the JVM's limits, else what is wrong and what to do. */
    String problem() {
        if (directNeeded() > directMax) {
            return String.format("local_cache_memory_size=%s, the FUSE buffers (%s) and the S3 client's pool (%s, from"
                    + " buffer_size) need %s of direct memory, more than this JVM's direct memory limit"
                    + " (-XX:MaxDirectMemorySize) of %s; lower local_cache_memory_size or buffer_size, or raise the"
                    + " limit: STRATA_JAVA_OPTS=\"-XX:MaxDirectMemorySize=%s\"", size(memoryTier), size(fuseBuffers),
                    size(s3Pool), size(directNeeded()), size(directMax), jvmSize(directNeeded()));
        }
        if (readahead > heapMax / 2) {
            return String.format("buffer_size=%s (readahead buffers, on the heap) is more than half of this JVM's"
                    + " heap limit (-Xmx) of %s; lower buffer_size, or raise the heap: STRATA_JAVA_OPTS=\"-Xmx%s\"", size(readahead),
                    size(heapMax), jvmSize(2 * readahead + (128L << 20)));
        }
        return null;
    }

    /** One line for the mount's log: the bounds and what fills them. */
    String describe() {
        return String.format("memory: heap up to %s (readahead buffers %s), direct up to %s (memory tier %s, FUSE"
                        + " buffers %s, S3 client's pool %s); the process stays under %s plus the JVM's own (code,"
                        + " metaspace, threads)",
                size(heapMax), size(readahead), size(directMax), size(memoryTier), size(fuseBuffers), size(s3Pool),
                size(heapMax + directMax));
    }

    /** A size as the JVM's flags take it: whole MiB, rounded up to 64 MiB ("1088m"). */
    private static String jvmSize(long bytes) {
        long mib = 64L << 20;
        return (bytes + mib - 1) / mib * 64 + "m";
    }

    /** As options write sizes; a JVM limit that is no whole number of MiB (the heap less a survivor space) rounded to one. */
    private static String size(long bytes) {
        long mib = 1L << 20;
        return DataSize.ofBytes(bytes % mib == 0 ? bytes : (bytes + mib / 2) / mib * mib).toString();
    }
}
