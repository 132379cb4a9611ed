package io.strata.cli.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Access log lines summed by operation: how many, their total and average time, and how many
 * failed, in the order of the time they took altogether. Fed by one thread.
 */
public final class Profile {
    /** One operation's sums. */
    public record OpTotals(String op, long count, double seconds, long errors) {
        public double averageSeconds() {
            return count == 0 ? 0 : seconds / count;
        }
    }

    private final Predicate<AccessLogLine> filter;
    private final Map<String, long[]> counts = new HashMap<>();
    private final Map<String, double[]> seconds = new HashMap<>();
    private long lines;

    /** Counts the lines {@code filter} accepts. */
    public Profile(Predicate<AccessLogLine> filter) {
        this.filter = filter;
    }

    public void add(AccessLogLine line) {
        if (!filter.test(line)) {
            return;
        }
        lines++;
        long[] count = counts.computeIfAbsent(line.op(), op -> new long[2]);
        count[0]++;
        if (!line.result().equals("OK")) {
            count[1]++;
        }
        seconds.computeIfAbsent(line.op(), op -> new double[1])[0] += line.seconds();
    }

    public long lines() {
        return lines;
    }

    /** The operations, the one that took longest altogether first. */
    public List<OpTotals> totals() {
        List<OpTotals> totals = new ArrayList<>();
        counts.forEach((op, count) -> totals.add(new OpTotals(op, count[0], seconds.get(op)[0], count[1])));
        totals.sort(Comparator.comparingDouble(OpTotals::seconds).reversed().thenComparing(OpTotals::op));
        return totals;
    }

    /** The table {@code strata profile} prints. */
    public List<String> table() {
        List<String> rows = new ArrayList<>();
        rows.add(String.format("%-16s %10s %8s %12s %12s", "OPERATION", "COUNT", "ERRORS", "TOTAL (s)", "AVERAGE (ms)"));
        for (OpTotals op : totals()) {
            rows.add(String.format("%-16s %10d %8d %12.3f %12.3f", op.op(), op.count(), op.errors(), op.seconds(),
                    op.averageSeconds() * 1000));
        }
        return rows;
    }
}
