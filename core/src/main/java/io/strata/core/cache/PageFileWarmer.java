package io.strata.core.cache;

import io.strata.core.concurrent.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Reads whole page files back into the kernel's page cache, in the background, when a read of
 * part of one found it gone from there (the kernel dropped it under memory pressure, or was told
 * to). A read takes only the chunks it needs from a page file, 4 KiB for a 4 KiB read; after the
 * page cache is dropped, each such read waits on the disk, and a page comes back one chunk at a
 * time. Read whole and in order, a page file comes back in a few large reads the kernel reads
 * ahead for, and the reads that follow find it in memory.
 *
 * <p>One thread, and a queue of {@link #QUEUE} files: a request that finds the queue full is
 * refused, and its caller may ask again later.
 */
final class PageFileWarmer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PageFileWarmer.class);
    /** Files waiting: the pages of 1 GiB at the default page size. */
    static final int QUEUE = 1024;
    private static final int READ = 256 << 10;

    private final ThreadPoolExecutor thread;
    /** Where the one thread reads to: the bytes are not wanted, only their trip through the page cache. */
    private final ByteBuffer sink = ByteBuffer.allocateDirect(READ);

    PageFileWarmer(String name) {
        thread = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                DaemonThreads.named(name), new ThreadPoolExecutor.AbortPolicy());
        thread.allowCoreThreadTimeOut(true);
    }

    /** Queues {@code file} to be read whole; false if the queue is full or the warmer closed. */
    boolean warm(Path file) {
        try {
            thread.execute(() -> readWhole(file));
            return true;
        } catch (RejectedExecutionException busy) {
            return false;
        }
    }

    private void readWhole(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long at = 0;
            int n;
            while ((n = channel.read(sink.clear(), at)) > 0) {
                at += n;
            }
        } catch (NoSuchFileException gone) {
            // evicted since: nothing to warm
        } catch (IOException e) {
            log.debug("reading page file {} back into the page cache: {}", file, e.toString());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
