package io.strata.cli;

import io.strata.cli.stats.StatsSample;
import io.strata.cli.stats.StatsView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code strata stats MOUNTPOINT}: a live, dstat-like view of a mount, from its {@code .stats}
 * file read once per interval: the process's CPU and memory, FUSE, metastore, page store and under
 * storage rates. On a terminal the line of values is redrawn in place; otherwise one line is
 * printed per interval, for logs and scripts.
 */
@Command(name = "stats", sortOptions = false,
        description = {"Show a mount's activity live: cpu/mem, FUSE ops and bytes, metastore, page store, under storage.",
                "Reads MOUNTPOINT/.stats once per interval."})
final class StatsCommand extends StrataSubcommand {
    static final String STATS_FILE = ".stats";

    @Parameters(paramLabel = "MOUNTPOINT", description = "A Strata mount.")
    Path mountPoint;

    @Option(names = "--interval", defaultValue = "1", paramLabel = "SECONDS",
            description = "Seconds between updates (default: ${DEFAULT-VALUE}).")
    double interval;

    @Option(names = "--verbosity", defaultValue = "0", paramLabel = "N",
            description = "0: the main columns; 1: also errors, S3 GETs and bytes from the under storage;"
                    + " 2: also the JVM's GC and heap (default: ${DEFAULT-VALUE}).")
    int verbosity;

    @Option(names = "--count", defaultValue = "0", paramLabel = "N",
            description = "Stop after N updates; 0 runs until interrupted (default: ${DEFAULT-VALUE}).")
    int count;


    @Override
    int run() throws Exception {
        if (interval <= 0 || Double.isNaN(interval)) {
            throw CliException.badInput("--interval must be above 0 seconds, not " + interval);
        }
        if (count < 0) {
            throw CliException.badInput("--count must be 0 (no end) or more, not " + count);
        }
        Path stats = statsFile();
        boolean inPlace = onTerminal();
        StatsView view = new StatsView(verbosity);
        view.header().forEach(out()::println);
        out().flush();
        Duration pause = Duration.ofNanos((long) (interval * 1e9));
        StatsSample previous = sample(stats);
        for (int n = 1; count == 0 || n <= count; n++) {
            Thread.sleep(pause.toMillis(), pause.toNanosPart() % 1_000_000);
            StatsSample current = sample(stats);
            String row = view.row(previous, current);
            if (inPlace) {
                // Redraw the one line: carriage return, then erase to the end of the line.
                out().print("\r\u001b[K" + row);
            } else {
                out().println(row);
            }
            out().flush();
            previous = current;
        }
        if (inPlace) {
            out().println();
        }
        return ExitCodes.OK;
    }

    private Path statsFile() {
        if (!Files.isDirectory(mountPoint)) {
            throw CliException.badInput(mountPoint + " is not a directory; give the mountpoint of a Strata mount");
        }
        Path stats = mountPoint.resolve(STATS_FILE);
        if (!Files.exists(stats)) {
            throw CliException.badInput(mountPoint + " has no " + STATS_FILE + ": give the root of a Strata mount");
        }
        return stats;
    }

    private static StatsSample sample(Path stats) throws IOException {
        try {
            return StatsSample.parse(Files.readString(stats), System.nanoTime());
        } catch (NoSuchFileException e) {
            throw CliException.failure(stats + " is gone: the mount was unmounted");
        }
    }
}
