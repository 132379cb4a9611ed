package io.strata.cli.objbench;

import io.strata.core.concurrent.DaemonThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The throughput phase: the big object put and got block by block, then the small objects put,
 * got, headed and deleted, each step {@code threads} requests at a time and timed as a whole
 * (rate) and request by request (latency). Reads are checked for their length; the functional
 * checks are where contents are compared.
 */
public final class ThroughputBench {
    /** Each object starts at its own offset of one random buffer: distinct contents without a copy each. */
    private static final int OFFSETS = 4096;

    private final BucketClient bucket;
    private final String prefix;
    private final ThroughputSettings settings;
    private final BooleanSupplier stopped;

    /**
     * @param prefix the key prefix to write under, ending in '/'
     * @param stopped true once the run is to stop (a signal): requests in flight finish, no new one starts
     */
    public ThroughputBench(BucketClient bucket, String prefix, ThroughputSettings settings, BooleanSupplier stopped) {
        this.bucket = requireNonNull(bucket, "bucket is null");
        this.prefix = requireNonNull(prefix, "prefix is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.stopped = requireNonNull(stopped, "stopped is null");
    }

    /** The items measured with these settings, in order. */
    public List<String> items() {
        List<String> items = new ArrayList<>();
        if (settings.bigObjectSize() > 0) {
            items.addAll(List.of("put big object", "get big object"));
        }
        if (settings.smallObjects() > 0) {
            items.addAll(List.of("put small objects", "get small objects", "head small objects",
                    "delete small objects"));
        }
        return items;
    }

    /**
     * Runs every step, handing each row to {@code rows} as it is measured.
     *
     * @throws IOException naming the step and the request that failed; the run stops there
     */
    public void run(Consumer<ThroughputRow> rows) throws IOException {
        byte[] data = new byte[(int) Math.max(settings.blockSize(), settings.smallObjectSize()) + OFFSETS];
        new Random().nextBytes(data);
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads(),
                DaemonThreads.numbered("strata-objbench"));
        try {
            if (settings.bigObjectSize() > 0) {
                bigObject(pool, data, rows);
            }
            if (settings.smallObjects() > 0) {
                smallObjects(pool, data, rows);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void bigObject(ExecutorService pool, byte[] data, Consumer<ThroughputRow> rows) throws IOException {
        int blocks = settings.blocks();
        rows.accept(measure(pool, "put big object", "block", true, blocks, block -> {
            int length = (int) settings.blockLength(block);
            bucket.put(blockKey(block), slice(data, block, length));
            return length;
        }));
        rows.accept(measure(pool, "get big object", "block", true, blocks, block -> {
            long length = settings.blockLength(block);
            return expectLength(blockKey(block), bucket.get(blockKey(block)).length, length);
        }));
        // Not measured: the store has room again before the small objects, and the run's cleanup has less to do.
        measure(pool, "delete big object", "block", false, blocks, block -> {
            bucket.delete(blockKey(block));
            return 0;
        });
    }

    private void smallObjects(ExecutorService pool, byte[] data, Consumer<ThroughputRow> rows) throws IOException {
        int count = settings.smallObjects();
        int size = (int) settings.smallObjectSize();
        rows.accept(measure(pool, "put small objects", "object", false, count, i -> {
            bucket.put(smallKey(i), slice(data, i, size));
            return size;
        }));
        rows.accept(measure(pool, "get small objects", "object", false, count,
                i -> expectLength(smallKey(i), bucket.get(smallKey(i)).length, size)));
        rows.accept(measure(pool, "head small objects", "object", false, count, i -> {
            Optional<Long> length = bucket.size(smallKey(i));
            if (length.isEmpty()) {
                throw new IOException("HEAD " + smallKey(i) + ": not found just after it was written");
            }
            expectLength(smallKey(i), length.get(), size);
            return 0;
        }));
        rows.accept(measure(pool, "delete small objects", "object", false, count, i -> {
            bucket.delete(smallKey(i));
            return 0;
        }));
    }

    /** One request of a step: the {@code index}th object; returns the bytes it moved. */
    @FunctionalInterface
    private interface Request {
        long run(int index) throws IOException;
    }

    /**
     * Runs {@code count} requests on the pool's threads, each thread taking the next index until
     * none is left or one request failed, which ends the step.
     */
    private ThroughputRow measure(ExecutorService pool, String item, String unit, boolean bandwidth,
                                         int count, Request request) throws IOException {
        AtomicInteger next = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        AtomicLong latency = new AtomicLong();
        AtomicReference<IOException> failure = new AtomicReference<>();
        long start = System.nanoTime();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < Math.min(count, settings.threads()); t++) {
            workers.add(pool.submit(() -> {
                int index;
                while (failure.get() == null && !stopped.getAsBoolean() && (index = next.getAndIncrement()) < count) {
                    long begin = System.nanoTime();
                    try {
                        bytes.addAndGet(request.run(index));
                    } catch (IOException e) {
                        failure.compareAndSet(null, e);
                        return;
                    }
                    latency.addAndGet(System.nanoTime() - begin);
                }
            }));
        }
        for (Future<?> worker : workers) {
            try {
                worker.get();
            } catch (InterruptedException e) {
                workers.forEach(w -> w.cancel(true));
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(item + ": interrupted");
            } catch (ExecutionException e) {
                throw new IllegalStateException(item + ": " + e.getCause(), e.getCause());
            }
        }
        long elapsed = System.nanoTime() - start;
        if (failure.get() != null) {
            throw new IOException(item + ": " + failure.get().getMessage(), failure.get());
        }
        if (stopped.getAsBoolean()) {
            throw new InterruptedIOException(item + ": stopped by a signal");
        }
        return new ThroughputRow(item, unit, bandwidth, count, bytes.get(), elapsed, latency.get());
    }

    private static ByteBuffer slice(byte[] data, int index, int length) {
        return ByteBuffer.wrap(data, (index * 61) % OFFSETS, length).slice();
    }

    private static long expectLength(String key, long actual, long expected) throws IOException {
        if (actual != expected) {
            throw new IOException(key + ": read " + actual + " bytes, expected " + expected);
        }
        return actual;
    }

    private String blockKey(int block) {
        return prefix + "big/block-" + block;
    }

    private String smallKey(int index) {
        return prefix + "small/object-" + index;
    }
}
