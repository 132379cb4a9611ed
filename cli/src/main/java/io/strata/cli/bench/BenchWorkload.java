package io.strata.cli.bench;

import io.strata.core.concurrent.DaemonThreads;
import io.strata.cli.Messages;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * The files of one {@code strata bench} run and the timed operations on them: each phase runs
 * the same work on every thread at once ({@code big.T}, {@code small.T.I} for thread T) and is
 * timed from the first thread's start to the last one's end, as {@code juicefs bench} times them.
 *
 * <p>Files are written from one block of random bytes per thread (so compression or deduplication
 * below cannot flatter the figures) and closed without fsync: what a close makes durable is the
 * file system's business, and part of what is measured. {@link #cancel()} (Ctrl-C) stops the
 * threads between blocks.
 */
public final class BenchWorkload implements AutoCloseable {
    private static final long PROGRESS_INTERVAL_MILLIS = 200;

    private final Path dir;
    private final BenchSpec spec;
    private final ThreadPoolExecutor pool;
    /** Per thread: the block it writes (random bytes), and one to read into. */
    private final ThreadLocal<ByteBuffer> writeBlocks;
    private final ThreadLocal<ByteBuffer> readBlocks;
    private volatile boolean cancelled;

    public BenchWorkload(Path dir, BenchSpec spec) {
        this.dir = requireNonNull(dir, "dir is null");
        this.spec = requireNonNull(spec, "spec is null");
        // daemons: Ctrl-C must not wait for a thread stuck in a slow write
        this.pool = new ThreadPoolExecutor(spec.threads(), spec.threads(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), DaemonThreads.numbered("strata-bench"));
        pool.prestartAllCoreThreads(); // thread start-up is not part of the first phase's time
        this.writeBlocks = ThreadLocal.withInitial(() -> {
            byte[] random = new byte[spec.blockSize()];
            ThreadLocalRandom.current().nextBytes(random);
            return ByteBuffer.allocateDirect(spec.blockSize()).put(random).flip();
        });
        this.readBlocks = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(spec.blockSize()));
    }

    public BenchResult writeBigFile(BenchProgress progress) throws IOException {
        long size = spec.bigFileSize();
        return phase(BenchItem.WRITE_BIG_FILE, spec.threads(), size, true, progress,
                thread -> write(bigFile(thread), size, progress));
    }

    public BenchResult readBigFile(BenchProgress progress) throws IOException {
        long size = spec.bigFileSize();
        return phase(BenchItem.READ_BIG_FILE, spec.threads(), size, true, progress,
                thread -> read(bigFile(thread), size, progress));
    }

    public BenchResult writeSmallFiles(BenchProgress progress) throws IOException {
        long size = spec.smallFileSize();
        return phase(BenchItem.WRITE_SMALL_FILE, spec.smallFiles(), size, true, progress, thread -> {
            for (int i = 0; i < spec.smallFileCount(); i++) {
                write(smallFile(thread, i), size, null);
                progress.add(1);
            }
        });
    }

    public BenchResult readSmallFiles(BenchProgress progress) throws IOException {
        long size = spec.smallFileSize();
        return phase(BenchItem.READ_SMALL_FILE, spec.smallFiles(), size, true, progress, thread -> {
            for (int i = 0; i < spec.smallFileCount(); i++) {
                read(smallFile(thread, i), size, null);
                progress.add(1);
            }
        });
    }

    public BenchResult statSmallFiles(BenchProgress progress) throws IOException {
        long size = spec.smallFileSize();
        return phase(BenchItem.STAT_FILE, spec.smallFiles(), size, false, progress, thread -> {
            for (int i = 0; i < spec.smallFileCount(); i++) {
                checkCancelled();
                Path file = smallFile(thread, i);
                long found = Files.readAttributes(file, BasicFileAttributes.class).size();
                if (found != size) {
                    throw new IOException(file + " has " + found + " bytes, not the " + size + " written");
                }
                progress.add(1);
            }
        });
    }

    /** Stops the threads between blocks and waits a little for them; for Ctrl-C. */
    public void cancel() {
        cancelled = true;
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether {@link #cancel()} stopped the run. */
    public boolean cancelled() {
        return cancelled;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    private Path bigFile(int thread) {
        return dir.resolve("big." + thread);
    }

    private Path smallFile(int thread, int index) {
        return dir.resolve("small." + thread + "." + index);
    }

    /** One thread's share of a phase. */
    @FunctionalInterface
    private interface ThreadWork {
        void run(int thread) throws IOException;
    }

    /**
     * Runs {@code work} on every thread at once and times it; redraws the progress while waiting.
     * {@code movesData}: whether the files' bytes count as moved (not for a stat).
     */
    private BenchResult phase(BenchItem item, long files, long fileSize, boolean movesData, BenchProgress progress,
                              ThreadWork work) throws IOException {
        List<Future<?>> threads = new ArrayList<>(spec.threads());
        long start = System.nanoTime();
        try {
            for (int t = 0; t < spec.threads(); t++) {
                int thread = t;
                threads.add(pool.submit(() -> {
                    work.run(thread);
                    return null;
                }));
            }
            for (Future<?> thread : threads) {
                awaitDrawing(thread, progress);
            }
        } catch (RejectedExecutionException e) {
            throw new InterruptedIOException("cancelled"); // between two phases
        } catch (IOException | RuntimeException e) {
            threads.forEach(f -> f.cancel(true));
            throw e;
        }
        long nanos = System.nanoTime() - start;
        progress.finish();
        return new BenchResult(item, spec.threads(), files, fileSize, movesData ? files * fileSize : 0, nanos);
    }

    private static void awaitDrawing(Future<?> thread, BenchProgress progress) throws IOException {
        while (true) {
            try {
                thread.get(PROGRESS_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                progress.draw();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException(Messages.describe(e.getCause()), e.getCause());
            }
        }
    }

    /** Writes {@code size} bytes to a new file, block by block; big files count progress in bytes. */
    private void write(Path file, long size, BenchProgress bytes) throws IOException {
        ByteBuffer block = writeBlocks.get();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long left = size; left > 0; ) {
                checkCancelled();
                int n = (int) Math.min(block.capacity(), left);
                block.clear().limit(n);
                while (block.hasRemaining()) {
                    channel.write(block);
                }
                left -= n;
                if (bytes != null) {
                    bytes.add(n);
                }
            }
        }
    }

    /** Reads a file to its end, block by block, and checks it has the size written. */
    private void read(Path file, long size, BenchProgress bytes) throws IOException {
        ByteBuffer block = readBlocks.get();
        long total = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (true) {
                checkCancelled();
                block.clear();
                int n = channel.read(block);
                if (n < 0) {
                    break;
                }
                total += n;
                if (bytes != null) {
                    bytes.add(n);
                }
            }
        }
        if (total != size) {
            throw new IOException("read " + total + " bytes of " + file + ", not the " + size + " written");
        }
    }

    private void checkCancelled() throws InterruptedIOException {
        if (cancelled || Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("cancelled");
        }
    }
}
