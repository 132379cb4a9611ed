package io.strata.cli;

import io.strata.cli.bench.BenchDirectory;
import io.strata.cli.bench.BenchItem;
import io.strata.cli.bench.BenchJson;
import io.strata.cli.bench.BenchProgress;
import io.strata.cli.bench.BenchReport;
import io.strata.cli.bench.BenchResult;
import io.strata.cli.bench.BenchSpec;
import io.strata.cli.bench.BenchTable;
import io.strata.cli.bench.BenchTarget;
import io.strata.cli.bench.BenchWorkload;
import io.strata.cli.bench.CacheDropper;
import io.strata.core.conf.DataSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code strata bench PATH}: the workload of {@code juicefs bench}, so the two read alike. Each of
 * {@code -p} threads writes a big file and reads it back, then writes, reads and stats small
 * files, in a fresh directory under PATH that is removed at the end, also on failure or Ctrl-C
 * ({@link BenchDirectory}). The kernel caches are dropped before each read and stat where possible
 * ({@link CacheDropper}). The report is a table ({@link BenchTable}, figures coloured against
 * {@link BenchItem}'s thresholds on a terminal) or {@code --json} ({@link BenchJson}).
 *
 * <p>PATH may be any directory: on a Strata mount the report names what the mount serves; on a
 * local disk it gives the figures to compare with.
 */
@Command(name = "bench", sortOptions = false,
        description = {"Measure a directory (typically in a Strata mount) with juicefs bench's workload:",
                "each thread writes and reads a big file, then writes, reads and stats small files,",
                "in a temporary directory under PATH that is removed afterwards."})
final class BenchCommand extends StrataSubcommand {
    /** A thread holds two blocks (one written, one read into) of direct memory. */
    private static final long MAX_BLOCK_SIZE = 64L << 20;

    @Parameters(index = "0", paramLabel = "PATH", description = "Directory to run in (it must exist and be writable).")
    Path path;

    @Option(names = {"-p", "--threads"}, defaultValue = "1", paramLabel = "N",
            description = "Threads, each doing the whole workload (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--big-file-size", defaultValue = "1GiB", paramLabel = "SIZE",
            description = "Size of each thread's big file (default: ${DEFAULT-VALUE}).")
    String bigFileSize;

    @Option(names = "--small-file-size", defaultValue = "128KiB", paramLabel = "SIZE",
            description = "Size of each small file (default: ${DEFAULT-VALUE}).")
    String smallFileSize;

    @Option(names = "--small-file-count", defaultValue = "100", paramLabel = "N",
            description = "Small files per thread (default: ${DEFAULT-VALUE}).")
    int smallFileCount;

    @Option(names = "--block-size", defaultValue = "1MiB", paramLabel = "SIZE",
            description = "Size of each read and write (default: ${DEFAULT-VALUE}).")
    String blockSize;

    @Option(names = "--json", description = "Print one JSON document instead of the table; no progress bars.")
    boolean json;

    @Option(names = "--no-color", description = "Do not colour the figures (they are coloured only on a terminal anyway).")
    boolean noColor;

    @Option(names = "--no-drop-caches",
            description = "Leave the kernel caches alone (by default they are dropped before each read, as root).")
    boolean noDropCaches;


    /** The running workload, for the Ctrl-C hook to stop before it removes the directory. */
    private volatile BenchWorkload workload;

    @Override
    int run() {
        BenchSpec spec = spec();
        BenchTarget target = BenchTarget.of(directory(path));
        boolean forTerminal = !json && onTerminal();
        PrintWriter bars = forTerminal ? out() : null;
        Ansi ansi = !forTerminal || noColor ? Ansi.OFF : terminal != null ? Ansi.ON : Ansi.AUTO;
        if (!json) {
            BenchTable.printHeader(target, spec, out());
        }

        CacheDropper caches = new CacheDropper(!noDropCaches);
        List<BenchResult> results = new ArrayList<>();
        long start = System.nanoTime();
        Path workDir = null;
        try (BenchDirectory dir = BenchDirectory.create(target.path(), this::stopWork);
             BenchWorkload work = new BenchWorkload(dir.path(), spec)) {
            workDir = dir.path();
            workload = work;
            runPhases(work, spec, caches, bars, results);
        } catch (IOException e) {
            if (bars != null) {
                bars.println(); // off the unfinished bar
            }
            if (workDir == null) {
                throw CliException.failure("cannot create a directory in " + target.path() + ": " + Messages.describe(e));
            }
            BenchWorkload running = workload;
            if (running != null && running.cancelled()) {
                throw CliException.failure("interrupted; " + workDir + " is removed as the JVM exits");
            }
            if (results.size() == BenchItem.values().length) {
                throw CliException.failure("cannot remove " + workDir + ": " + Messages.describe(e) + "; remove it by hand");
            }
            throw CliException.failure("bench failed in " + workDir + ": " + Messages.describe(e)
                    + (Files.exists(workDir) ? "; remove that directory by hand" : " (the directory is removed)"));
        } finally {
            workload = null;
        }
        BenchReport report = new BenchReport(target, spec, results, caches.failure(), System.nanoTime() - start);
        try {
            if (json) {
                BenchJson.write(report, out());
            } else {
                BenchTable.printResults(report, ansi, out());
            }
        } catch (IOException e) {
            throw CliException.failure("cannot print the report: " + Messages.describe(e));
        }
        return ExitCodes.OK;
    }

    /** The phases in juicefs bench's order, adding a result per phase; the caches dropped before each read. */
    private static void runPhases(BenchWorkload work, BenchSpec spec, CacheDropper caches, PrintWriter bars,
                                  List<BenchResult> results) throws IOException {
        long bigBytes = spec.threads() * spec.bigFileSize();
        caches.drop(); // nothing from before the run in the caches either
        results.add(work.writeBigFile(BenchProgress.of(bars, BenchItem.WRITE_BIG_FILE, bigBytes)));
        caches.drop();
        results.add(work.readBigFile(BenchProgress.of(bars, BenchItem.READ_BIG_FILE, bigBytes)));
        results.add(work.writeSmallFiles(BenchProgress.of(bars, BenchItem.WRITE_SMALL_FILE, spec.smallFiles())));
        caches.drop();
        results.add(work.readSmallFiles(BenchProgress.of(bars, BenchItem.READ_SMALL_FILE, spec.smallFiles())));
        caches.drop();
        results.add(work.statSmallFiles(BenchProgress.of(bars, BenchItem.STAT_FILE, spec.smallFiles())));
    }

    private void stopWork() {
        BenchWorkload running = workload;
        if (running != null) {
            running.cancel();
        }
    }

    /** The options as a checked spec; a bad one ends the command naming it. */
    private BenchSpec spec() {
        if (threads < 1) {
            throw CliException.badInput("--threads must be at least 1, not " + threads);
        }
        if (smallFileCount < 1) {
            throw CliException.badInput("--small-file-count must be at least 1, not " + smallFileCount);
        }
        long block = size("--block-size", blockSize);
        if (block > MAX_BLOCK_SIZE) {
            throw CliException.badInput("--block-size must be at most " + DataSize.ofBytes(MAX_BLOCK_SIZE) + ", not "
                    + blockSize);
        }
        long big = size("--big-file-size", bigFileSize);
        long small = size("--small-file-size", smallFileSize);
        try {
            Math.multiplyExact(big, threads);
            Math.multiplyExact(Math.multiplyExact(small, smallFileCount), threads);
        } catch (ArithmeticException e) {
            throw CliException.badInput("--big-file-size, --small-file-size and --small-file-count times --threads"
                    + " are too large; give smaller ones");
        }
        return new BenchSpec((int) block, big, small, smallFileCount, threads);
    }

    private static long size(String option, String text) {
        long bytes;
        try {
            bytes = DataSize.parse(text).bytes();
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(option + " '" + text + "' is not a size; " + e.getMessage());
        }
        if (bytes < 1) {
            throw CliException.badInput(option + " must be more than 0 bytes, not " + text);
        }
        return bytes;
    }

    /** {@code path} resolved, checked to be a directory this process can write in. */
    private static Path directory(Path path) {
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException e) {
            throw CliException.badInput(path + " does not exist; give an existing directory to run in");
        } catch (IOException e) {
            throw CliException.failure("cannot resolve " + path + ": " + Messages.describe(e));
        }
        if (!Files.isDirectory(real)) {
            throw CliException.badInput(path + " is not a directory; give a directory to run in");
        }
        if (!Files.isWritable(real)) {
            throw CliException.badInput(path + " is not writable (read-only file system or permissions);"
                    + " give a directory you can write in");
        }
        return real;
    }
}
