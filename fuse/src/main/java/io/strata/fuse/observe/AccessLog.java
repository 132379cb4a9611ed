package io.strata.fuse.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The mount's operations as text, one line each, for whoever reads {@code .accesslog}:
 *
 * <pre>2026.11.25 15:30:01.123456 [uid:0,gid:0,pid:4242] lookup (1,"data.csv"): OK &lt;0.000031&gt;</pre>
 *
 * <p>Each reader gets its own bounded queue. A served request offers its line to every queue and
 * never waits: a reader that falls behind loses lines, counted in {@code strata.fuse.accesslog.dropped},
 * rather than slowing the mount. With no reader attached, {@link #active()} is one volatile read and
 * no line is made.
 */
public final class AccessLog {
    static final String DROPPED = "strata.fuse.accesslog.dropped";
    static final String READERS = "strata.fuse.accesslog.readers";
    /** Lines a reader may fall behind by before it loses some: a few seconds of a busy mount. */
    static final int QUEUE_LINES = 16_384;
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy.MM.dd HH:mm:ss").withZone(ZoneId.systemDefault());

    private final CopyOnWriteArrayList<Reader> readers = new CopyOnWriteArrayList<>();
    private final Counter dropped;
    private volatile SecondPrefix second = new SecondPrefix(Long.MIN_VALUE, "");

    public AccessLog(MeterRegistry registry) {
        this.dropped = Counter.builder(DROPPED).description("access log lines a slow reader lost")
                .register(requireNonNull(registry, "registry is null"));
        Gauge.builder(READERS, readers, List::size).description("readers attached to the access log")
                .register(registry);
    }

    /** Whether a reader is attached; callers make no line when none is. */
    public boolean active() {
        return !readers.isEmpty(); // a volatile read of the list's array
    }

    /**
     * Offers one operation's line to every reader.
     *
     * @param arguments the operation's arguments as the transport shows them, e.g. {@code 1,"name"}
     * @param errno 0 for success
     * @param result what the operation returned beyond success, or null (bytes read, a new inode)
     */
    public void record(int uid, int gid, int pid, String op, String arguments, int errno, String result, long nanos) {
        StringBuilder line = new StringBuilder(128);
        appendTime(line, Instant.now().minusNanos(nanos));
        line.append(" [uid:").append(uid).append(",gid:").append(gid).append(",pid:").append(pid).append("] ")
                .append(op).append(" (").append(arguments).append("): ").append(Errnos.name(errno));
        if (errno == 0 && result != null) {
            line.append(' ').append(result);
        }
        line.append(" <").append(nanos / 1_000_000_000L).append('.');
        appendDigits(line, (nanos / 1000) % 1_000_000, 6);
        line.append(">\n");
        String text = line.toString();
        for (Reader reader : readers) {
            if (!reader.lines.offer(text)) {
                dropped.increment();
            }
        }
    }

    /**
     * {@code yyyy.MM.dd HH:mm:ss.uuuuuu}: the part up to the second is formatted once per second and
     * reused, so a busy mount's lines cost a formatter call per second, not per line.
     */
    private void appendTime(StringBuilder line, Instant time) {
        SecondPrefix prefix = second;
        if (prefix.epochSecond() != time.getEpochSecond()) {
            prefix = new SecondPrefix(time.getEpochSecond(), TIME.format(time.truncatedTo(ChronoUnit.SECONDS)));
            second = prefix;
        }
        line.append(prefix.text()).append('.');
        appendDigits(line, time.getNano() / 1000, 6);
    }

    private static void appendDigits(StringBuilder line, long value, int digits) {
        String text = Long.toString(value);
        for (int i = text.length(); i < digits; i++) {
            line.append('0');
        }
        line.append(text);
    }

    /** A second's formatted time, shared by the lines of that second. */
    private record SecondPrefix(long epochSecond, String text) {}

    /** Attaches a reader; lines recorded from now on reach it until it is closed. */
    public Reader attach() {
        Reader reader = new Reader();
        readers.add(reader);
        return reader;
    }

    /** One reader's queue: lines handed out whole, in order. Read by one thread at a time. */
    public final class Reader implements AutoCloseable {
        private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(QUEUE_LINES);
        /** The part of a line that did not fit the last read. */
        private byte[] carried;
        private int carriedFrom;

        private Reader() {}

        /**
         * Fills {@code dst} with the next lines, waiting up to {@code wait} for the first. Returns the
         * bytes put; none only if nothing came within the wait.
         */
        public synchronized int read(ByteBuffer dst, long wait, TimeUnit unit) throws InterruptedException {
            int start = dst.position();
            if (carried == null) {
                String first = lines.poll(wait, unit);
                if (first == null) {
                    return 0;
                }
                carry(first);
            }
            while (true) {
                int n = Math.min(dst.remaining(), carried.length - carriedFrom);
                dst.put(carried, carriedFrom, n);
                carriedFrom += n;
                if (carriedFrom < carried.length) {
                    break; // the buffer is full; the rest of this line goes first next time
                }
                carried = null;
                String next = lines.poll();
                if (next == null || !dst.hasRemaining()) {
                    if (next != null) {
                        carry(next);
                    }
                    break;
                }
                carry(next);
            }
            return dst.position() - start;
        }

        private void carry(String line) {
            carried = line.getBytes(StandardCharsets.UTF_8);
            carriedFrom = 0;
        }

        @Override
        public void close() {
            readers.remove(this);
        }
    }
}
