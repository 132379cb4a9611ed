package io.strata.core.concurrent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * A {@link ThreadFactory} of daemon threads named for their pool: {@link #numbered} for a pool of
 * several ("strata-cache-fill-1", "strata-cache-fill-2", ...), {@link #named} for a pool of one.
 */
public final class DaemonThreads implements ThreadFactory {
    private final String name;
    /** Null for a pool of one: its thread takes the name as it is. */
    private final AtomicInteger count;

    private DaemonThreads(String name, AtomicInteger count) {
        this.name = requireNonNull(name, "name is null");
        this.count = count;
    }

    /** Threads named {@code prefix-1}, {@code prefix-2}, ... in the order they start. */
    public static DaemonThreads numbered(String prefix) {
        return new DaemonThreads(prefix, new AtomicInteger());
    }

    /** Threads named {@code name} each: for a pool that runs one thread at a time. */
    public static DaemonThreads named(String name) {
        return new DaemonThreads(name, null);
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, count == null ? name : name + "-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
