package io.strata.cli.bench;

/**
 * The rows of {@code strata bench}, each with what it measures and the thresholds its figures are
 * rated against.
 *
 * <p>The thresholds are JuiceFS's ({@code resultRange} in its {@code cmd/bench.go}), so a run here
 * reads like a {@code juicefs bench} run on the same machine. They are meant for a network file
 * system over object storage: a local disk is green everywhere. A rate is good above
 * {@code goodRate}, fair above {@code poorRate}, poor otherwise; a cost (time per file, seen by one
 * thread) is good below {@code goodCost}, fair below {@code poorCost}, poor otherwise. As in
 * JuiceFS, the rates of the small-file rows are per thread (multiplied by the thread count before
 * comparing: each thread does the same work), while the big-file rates are totals. The big-file
 * costs are given for a 1 GiB file and scaled with {@code --big-file-size}, so that they stand
 * for the same per-thread throughput whatever the size.
 */
public enum BenchItem {
    //                   label               bigFile goodRate poorRate goodCost poorCost (MiB/s or files/s; s or ms)
    WRITE_BIG_FILE("Write big file", true, 200, 100, 10, 50),
    READ_BIG_FILE("Read big file", true, 200, 100, 10, 50),
    WRITE_SMALL_FILE("Write small file", false, 20, 12.5, 50, 80),
    READ_SMALL_FILE("Read small file", false, 100, 50, 10, 20),
    STAT_FILE("Stat file", false, 1000, 20, 1, 5);

    private static final double GIB = 1 << 30;

    private final String label;
    private final boolean bigFile;
    private final double goodRate;
    private final double poorRate;
    private final double goodCost;
    private final double poorCost;

    BenchItem(String label, boolean bigFile, double goodRate, double poorRate, double goodCost, double poorCost) {
        this.label = label;
        this.bigFile = bigFile;
        this.goodRate = goodRate;
        this.poorRate = poorRate;
        this.goodCost = goodCost;
        this.poorCost = poorCost;
    }

    /** How a figure compares with the thresholds: green, yellow or red in the table. */
    enum Rating { GOOD, FAIR, POOR }

    public String label() {
        return label;
    }

    /** Whether the row is about the big files: its rate is in MiB/s and its cost in s/file. */
    public boolean bigFile() {
        return bigFile;
    }

    public String rateUnit() {
        return bigFile ? "MiB/s" : "files/s";
    }

    public String costUnit() {
        return bigFile ? "s/file" : "ms/file";
    }

    /** {@code rate} (in {@link #rateUnit()}) of a run with {@code threads} threads. */
    public Rating rateRating(double rate, int threads) {
        double scale = bigFile ? 1 : threads;
        return rate > goodRate * scale ? Rating.GOOD : rate > poorRate * scale ? Rating.FAIR : Rating.POOR;
    }

    /** {@code cost} (in {@link #costUnit()}) of files of {@code fileSize} bytes. */
    public Rating costRating(double cost, long fileSize) {
        double scale = bigFile ? fileSize / GIB : 1;
        return cost < goodCost * scale ? Rating.GOOD : cost < poorCost * scale ? Rating.FAIR : Rating.POOR;
    }
}
