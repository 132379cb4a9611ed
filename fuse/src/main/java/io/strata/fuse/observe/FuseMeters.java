package io.strata.fuse.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The FUSE operations' meters: {@code strata.fuse.ops} (a timer with a latency histogram per
 * {@code op}), {@code strata.fuse.errors} (per {@code op} and {@code errno}) and
 * {@code strata.fuse.bytes} (per {@code direction}: {@code read}, {@code written}).
 *
 * <p>An operation's meters are found by name once and kept, so recording one costs a map read
 * and the timer's own update.
 */
public final class FuseMeters {
    static final String OPS = "strata.fuse.ops";
    static final String ERRORS = "strata.fuse.errors";
    static final String BYTES = "strata.fuse.bytes";
    static final String NOTIFICATIONS = "strata.fuse.notifications";
    static final String SPLICED = "strata.fuse.read.spliced";

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> errors = new ConcurrentHashMap<>();
    private final Counter bytesRead;
    private final Counter bytesWritten;
    private final Counter bytesSpliced;
    /** Held here: a FunctionCounter holds what it reads only weakly. */
    private LongSupplier notificationsSent;
    private LongSupplier notificationsDropped;

    public FuseMeters(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
        this.bytesRead = bytes("read");
        this.bytesWritten = bytes("written");
        this.bytesSpliced = Counter.builder(SPLICED).baseUnit("bytes")
                .description("file data read replies spliced from page files rather than copied (fuse=kernel)")
                .register(registry);
    }

    private Counter bytes(String direction) {
        return Counter.builder(BYTES).tag("direction", direction).baseUnit("bytes")
                .description("file data read and written through the mount").register(registry);
    }

    /** One served operation: its name (lower case, as in the kernel's FUSE_ names), errno (0: done) and time. */
    public void served(String op, int errno, long nanos) {
        timer(op).record(nanos, TimeUnit.NANOSECONDS);
        if (errno != 0) {
            errors.computeIfAbsent(op + ' ' + errno, key -> Counter.builder(ERRORS).tag("op", op)
                    .tag("errno", Errnos.name(errno)).description("FUSE requests answered with an error")
                    .register(registry)).increment();
        }
    }

    /**
     * Makes the timers of {@code ops} now, with no request counted: a timer with its histogram
     * costs ~0.3 ms to make in a fresh JVM, which a mount's first request of each kind would
     * otherwise wait for. Prometheus's own advice is the same: meters present from the start.
     */
    public void prepare(Collection<String> ops) {
        ops.forEach(this::timer);
    }

    private Timer timer(String op) {
        return timers.computeIfAbsent(op, name -> Timer.builder(OPS).tag("op", name)
                .description("FUSE requests served, by operation").publishPercentileHistogram()
                .register(registry));
    }

    /**
     * Counts the cache invalidations the transport sends the kernel ({@code result=sent}) and those
     * it drops when its queue is full ({@code result=dropped}).
     */
    public void bindNotifications(LongSupplier sent, LongSupplier dropped) {
        this.notificationsSent = requireNonNull(sent, "sent is null");
        this.notificationsDropped = requireNonNull(dropped, "dropped is null");
        FunctionCounter.builder(NOTIFICATIONS, notificationsSent, LongSupplier::getAsLong).tag("result", "sent")
                .description("kernel cache invalidations (NOTIFY_INVAL_ENTRY, _INODE, _DELETE)").register(registry);
        FunctionCounter.builder(NOTIFICATIONS, notificationsDropped, LongSupplier::getAsLong).tag("result", "dropped")
                .description("kernel cache invalidations (NOTIFY_INVAL_ENTRY, _INODE, _DELETE)").register(registry);
    }

    public void read(long bytes) {
        bytesRead.increment(bytes);
    }

    /** Read bytes (already counted by {@link #read}) that were spliced from page files. */
    public void spliced(long bytes) {
        bytesSpliced.increment(bytes);
    }

    public void written(long bytes) {
        bytesWritten.increment(bytes);
    }
}
