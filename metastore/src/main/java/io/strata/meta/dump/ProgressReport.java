package io.strata.meta.dump;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The two faces of {@link Progress}: a bar redrawn in place with carriage returns (entries, rate,
 * ETA), or plain lines for logs. The clock is looked at once every {@value #CHECK_EVERY} entries,
 * so advancing costs next to nothing.
 */
final class ProgressReport implements Progress {
    private static final int CHECK_EVERY = 1024;
    private static final int BAR_WIDTH = 30;

    private final PrintWriter out;
    private final LongSupplier clock;
    private final boolean bar;
    private final long intervalNs;
    private String what = "";
    private long expected = -1;
    private long done;
    private long startNs;
    private long lastReportNs;
    private int sinceCheck;
    private boolean barDrawn;

    ProgressReport(PrintWriter out, LongSupplier clock, boolean bar, long intervalNs) {
        this.out = requireNonNull(out, "out is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.bar = bar;
        this.intervalNs = intervalNs;
    }

    @Override
    public synchronized void start(String what, long expectedEntries) {
        boolean first = this.what.isEmpty();
        this.what = requireNonNull(what, "what is null");
        this.expected = expectedEntries;
        if (first) {
            startNs = clock.getAsLong();
            lastReportNs = startNs;
        }
    }

    @Override
    public synchronized void advance(long entries) {
        done += entries;
        sinceCheck += (int) Math.min(entries, CHECK_EVERY);
        if (sinceCheck < CHECK_EVERY) {
            return;
        }
        sinceCheck = 0;
        long now = clock.getAsLong();
        if (now - lastReportNs >= intervalNs) {
            lastReportNs = now;
            report(now, false);
        }
    }

    @Override
    public synchronized void warn(String message) {
        clearBar();
        out.println("strata: warning: " + message);
        out.flush();
    }

    @Override
    public synchronized void finish() {
        report(clock.getAsLong(), true);
        if (barDrawn) {
            out.println();
            barDrawn = false;
        }
        out.flush();
    }

    @Override
    public synchronized void fail() {
        clearBar();
        out.flush();
    }

    private void report(long now, boolean last) {
        double seconds = Math.max(1e-9, (now - startNs) / 1e9);
        double rate = done / seconds;
        String line;
        if (last) {
            line = String.format(Locale.ROOT, "%s: %,d entries in %.1f s (%,.0f/s)", what, done, seconds, rate);
        } else if (expected > 0) {
            double fraction = Math.min(1.0, done / (double) expected);
            long etaSeconds = rate > 0 ? Math.round(Math.max(0, expected - done) / rate) : -1;
            line = String.format(Locale.ROOT, "%s: %,d of ~%,d entries (%d%%), %,.0f/s, ETA %s", what, done,
                    expected, Math.round(fraction * 100), rate, etaSeconds < 0 ? "?" : clockTime(etaSeconds));
            if (bar) {
                int filled = (int) Math.round(fraction * BAR_WIDTH);
                line = "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] " + line;
            }
        } else {
            line = String.format(Locale.ROOT, "%s: %,d entries, %,.0f/s", what, done, rate);
        }
        if (bar) {
            // \r and a clear-to-end-of-line: the bar is redrawn in place
            out.print("\r" + line + "\u001b[K");
            barDrawn = true;
        } else {
            out.println(line);
        }
        out.flush();
    }

    private void clearBar() {
        if (barDrawn) {
            out.print("\r\u001b[K");
            barDrawn = false;
        }
    }

    private static String clockTime(long seconds) {
        return seconds >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
