package io.strata.cli.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The columns of {@code strata stats}, dstat-like: groups of short columns, each a value of the
 * newer sample or a rate between two samples. Which columns show depends on the verbosity.
 */
public final class StatsView {
    private static final double MIB = 1 << 20;
    private static final int WIDTH = 7;

    /** One column: its group, header, the verbosity it needs, and how it is computed. */
    private record Column(String group, String header, int verbosity,
                          BiFunction<StatsSample, StatsSample, String> value) {}

    private final List<Column> columns;

    public StatsView(int verbosity) {
        List<Column> all = List.of(
                new Column("usage", "cpu", 0, (a, b) -> percent(b.sum("process_cpu_usage") * b.sum("system_cpu_count"))),
                new Column("usage", "mem", 0, (a, b) -> size(b.sum("strata_process_resident_memory_bytes"))),
                new Column("usage", "buf", 0, (a, b) -> size(b.sum("strata_readahead_buffer_used_bytes"))),
                new Column("usage", "cache", 0, (a, b) -> size(b.sum("strata_cache_used_bytes"))),
                new Column("fuse", "ops", 0, (a, b) -> count(rate(a, b, "strata_fuse_ops_seconds_count"))),
                new Column("fuse", "lat", 0, (a, b) -> millis(latency(a, b, "strata_fuse_ops_seconds"))),
                new Column("fuse", "read", 0, (a, b) -> size(rate(a, b, "strata_fuse_bytes_total", "direction=\"read\""))),
                new Column("fuse", "write", 0,
                        (a, b) -> size(rate(a, b, "strata_fuse_bytes_total", "direction=\"written\""))),
                new Column("fuse", "errs", 1, (a, b) -> count(rate(a, b, "strata_fuse_errors_total"))),
                new Column("meta", "ops", 0, (a, b) -> count(rate(a, b, "strata_meta_ops_seconds_count"))),
                new Column("meta", "lat", 0, (a, b) -> millis(latency(a, b, "strata_meta_ops_seconds"))),
                new Column("meta", "errs", 1, (a, b) -> count(rate(a, b, "strata_meta_errors_total"))),
                new Column("pages", "read", 0, (a, b) -> size(rate(a, b, "strata_cache_bytes_read_total"))),
                new Column("pages", "fill", 0, (a, b) -> count(rate(a, b, "strata_cache_fills_total"))),
                new Column("pages", "hit%", 0, StatsView::hitPercent),
                new Column("ufs", "read", 0, (a, b) -> count(rate(a, b, "strata_ufs_ops_seconds_count", "op=\"read\""))),
                new Column("ufs", "write", 0,
                        (a, b) -> count(rate(a, b, "strata_ufs_ops_seconds_count", "op=\"write\""))),
                new Column("ufs", "lat", 0, (a, b) -> millis(latency(a, b, "strata_ufs_ops_seconds"))),
                new Column("ufs", "recv", 1,
                        (a, b) -> size(rate(a, b, "strata_ufs_bytes_total", "direction=\"read\""))),
                new Column("ufs", "errs", 1, (a, b) -> count(rate(a, b, "strata_ufs_errors_total"))),
                new Column("s3", "gets", 1, (a, b) -> count(rate(a, b, "strata_readahead_requests_total"))),
                // milliseconds paused per second
                new Column("jvm", "gc", 2, (a, b) -> millis(rate(a, b, "jvm_gc_pause_seconds_sum"))),
                new Column("jvm", "heap", 2,
                        (a, b) -> size(b.sum("jvm_memory_used_bytes", "area=\"heap\""))));
        List<Column> shown = new ArrayList<>();
        for (Column column : all) {
            if (column.verbosity() <= verbosity) {
                shown.add(column);
            }
        }
        this.columns = List.copyOf(shown);
    }

    /** The two header lines: the groups, then the columns. */
    public List<String> header() {
        StringBuilder groups = new StringBuilder();
        StringBuilder names = new StringBuilder();
        int i = 0;
        while (i < columns.size()) {
            String group = columns.get(i).group();
            int j = i;
            StringBuilder part = new StringBuilder();
            while (j < columns.size() && columns.get(j).group().equals(group)) {
                part.append(pad(columns.get(j).header()));
                j++;
            }
            int width = part.length();
            String title = "-" + group + "-".repeat(Math.max(0, width - group.length() - 1));
            groups.append(title, 0, width).append('|');
            names.append(part).append('|');
            i = j;
        }
        return List.of(groups.substring(0, groups.length() - 1), names.substring(0, names.length() - 1));
    }

    /** One line of values: rates between {@code older} and {@code newer}, levels from {@code newer}. */
    public String row(StatsSample older, StatsSample newer) {
        StringBuilder row = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0 && !columns.get(i).group().equals(columns.get(i - 1).group())) {
                row.append('|');
            }
            row.append(pad(columns.get(i).value().apply(older, newer)));
        }
        return row.toString();
    }

    private static String pad(String text) {
        return text.length() >= WIDTH ? text.substring(0, WIDTH) : " ".repeat(WIDTH - text.length()) + text;
    }

    private static double seconds(StatsSample a, StatsSample b) {
        return Math.max(1e-9, (b.nanoTime() - a.nanoTime()) / 1e9);
    }

    private static double rate(StatsSample a, StatsSample b, String name, String... labels) {
        return Math.max(0, b.sum(name, labels) - a.sum(name, labels)) / seconds(a, b);
    }

    /** Mean seconds per event between the samples, of a timer's {@code _sum} and {@code _count}. */
    private static double latency(StatsSample a, StatsSample b, String timer) {
        double count = b.sum(timer + "_count") - a.sum(timer + "_count");
        return count <= 0 ? 0 : (b.sum(timer + "_sum") - a.sum(timer + "_sum")) / count;
    }

    private static String hitPercent(StatsSample a, StatsSample b) {
        double hits = b.sum("strata_cache_hits_total") - a.sum("strata_cache_hits_total");
        double fetches = b.sum("strata_cache_fetches_total") - a.sum("strata_cache_fetches_total");
        return hits + fetches <= 0 ? "-" : percent(hits / (hits + fetches));
    }

    private static String percent(double ratio) {
        return String.format("%.1f%%", ratio * 100);
    }

    private static String millis(double seconds) {
        return seconds <= 0 ? "0" : seconds < 0.1 ? String.format("%.2fms", seconds * 1000)
                : String.format("%.0fms", seconds * 1000);
    }

    private static String count(double perSecond) {
        if (perSecond >= 10_000) {
            return String.format("%.0fK", perSecond / 1000);
        }
        return perSecond >= 10 || perSecond == 0 ? String.format("%.0f", perSecond) : String.format("%.1f", perSecond);
    }

    private static String size(double bytes) {
        if (bytes < 1024) {
            return String.format("%.0f", bytes);
        }
        if (bytes < MIB) {
            return String.format("%.0fK", bytes / 1024);
        }
        if (bytes < 1024 * MIB) {
            return String.format("%.0fM", bytes / MIB);
        }
        return String.format("%.1fG", bytes / (1024 * MIB));
    }
}
