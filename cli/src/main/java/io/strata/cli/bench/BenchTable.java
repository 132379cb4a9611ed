package io.strata.cli.bench;

import io.strata.cli.Units;
import picocli.CommandLine.Help.Ansi;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code strata bench}'s report as text: what ran where, a table with a row per phase (item,
 * rate, cost per file), each figure coloured by its {@link BenchItem.Rating} when {@code ansi} is
 * on, and whether the kernel caches were dropped.
 */
public final class BenchTable {
    private static final String[] HEADER = {"ITEM", "VALUE", "COST"};

    private BenchTable() {}

    /** What is about to run, and where; printed before the progress bars. */
    public static void printHeader(BenchTarget target, BenchSpec spec, PrintWriter out) {
        out.printf("strata bench: %d thread%s in %s, on %s%n", spec.threads(), spec.threads() == 1 ? "" : "s",
                target.path(), target.describeMount());
        out.printf("each thread: 1 big file of %s, %d small files of %s; blocks of %s%n",
                Units.bytes(spec.bigFileSize()), spec.smallFileCount(), Units.bytes(spec.smallFileSize()),
                Units.bytes(spec.blockSize()));
        out.flush();
    }

    /** The table and what to know to read it. */
    public static void printResults(BenchReport report, Ansi ansi, PrintWriter out) {
        List<String[]> rows = new ArrayList<>();
        List<BenchItem.Rating[]> ratings = new ArrayList<>();
        for (BenchResult result : report.results()) {
            rows.add(new String[] {result.item().label(), rate(result) + " " + result.item().rateUnit(),
                    cost(result.cost()) + " " + result.item().costUnit()});
            ratings.add(new BenchItem.Rating[] {null, result.rateRating(), result.costRating()});
        }
        int[] widths = new int[HEADER.length];
        for (int c = 0; c < HEADER.length; c++) {
            widths[c] = HEADER[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        String divider = divider(widths);
        out.println(divider);
        out.println(line(HEADER, new BenchItem.Rating[HEADER.length], widths, Ansi.OFF));
        out.println(divider);
        for (int r = 0; r < rows.size(); r++) {
            out.println(line(rows.get(r), ratings.get(r), widths, ansi));
        }
        out.println(divider);

        out.println(report.cachesNotDropped()
                .map(why -> "kernel caches not dropped (" + why + "): reads may have been served from memory")
                .orElse("kernel caches dropped before each read and stat"));
        out.printf(Locale.ROOT, "total %.1f s%s%n", report.nanos() / 1e9,
                ansi.enabled() ? "; green, yellow, red: JuiceFS's thresholds for a good, fair, poor figure (README)" : "");
    }

    /** MiB/s with one decimal; files/s whole from 100 on. */
    public static String rate(BenchResult result) {
        double rate = result.rate();
        return String.format(Locale.ROOT, result.item().bigFile() || rate < 100 ? "%.1f" : "%.0f", rate);
    }

    /** Enough decimals to show a short time: 1.0, 0.25, 0.042. */
    public static String cost(double cost) {
        return String.format(Locale.ROOT, cost >= 1 ? "%.1f" : cost >= 0.1 ? "%.2f" : "%.3f", cost);
    }

    private static String divider(int[] widths) {
        StringBuilder line = new StringBuilder("+");
        for (int width : widths) {
            line.append("-".repeat(width + 2)).append('+');
        }
        return line.toString();
    }

    /** The item left-aligned, the figures right-aligned; only the figures' text is coloured, not the padding. */
    private static String line(String[] cells, BenchItem.Rating[] ratings, int[] widths, Ansi ansi) {
        StringBuilder line = new StringBuilder("|");
        for (int c = 0; c < cells.length; c++) {
            String padding = " ".repeat(widths[c] - cells[c].length());
            String text = ratings[c] == null ? cells[c] : ansi.apply(cells[c], List.of(style(ratings[c]))).toString();
            line.append(' ').append(c == 0 ? text + padding : padding + text).append(" |");
        }
        return line.toString();
    }

    private static Ansi.IStyle style(BenchItem.Rating rating) {
        return switch (rating) {
            case GOOD -> Ansi.Style.fg_green;
            case FAIR -> Ansi.Style.fg_yellow;
            case POOR -> Ansi.Style.fg_red;
        };
    }
}
