package io.strata.cli.bench;

import io.strata.cli.Units;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The progress of one {@code strata bench} phase: a line redrawn in place (carriage return) on a
 * terminal, left complete when the phase ends; nothing elsewhere, so piped output and
 * {@code --json} hold only the results. Threads {@link #add} to it; the waiting thread draws.
 */
public final class BenchProgress {
    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final String label;
    private final long total;
    private final boolean inBytes;
    private final AtomicLong done = new AtomicLong();

    private BenchProgress(PrintWriter out, String label, long total, boolean inBytes) {
        this.out = out;
        this.label = label;
        this.total = total;
        this.inBytes = inBytes;
    }

    /** A bar on {@code out}, counting bytes ({@code inBytes}) or files; {@code out} null draws nothing. */
    public static BenchProgress of(PrintWriter out, BenchItem item, long total) {
        return new BenchProgress(out, item.label(), total, item.bigFile());
    }

    public void add(long n) {
        done.addAndGet(n);
    }

    public void draw() {
        if (out == null) {
            return;
        }
        long n = Math.min(done.get(), total);
        int filled = total == 0 ? WIDTH : (int) (WIDTH * n / total);
        out.printf("\r%-16s [%s%s] %s %s / %s", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                Units.percent(n, total), amount(n), amount(total));
        out.flush();
    }

    /** The phase is over: the complete bar, and a new line for the next one. */
    public void finish() {
        if (out == null) {
            return;
        }
        done.set(total);
        draw();
        out.println();
        out.flush();
    }

    private String amount(long n) {
        return inBytes ? Units.bytes(n) : n + " files";
    }
}
