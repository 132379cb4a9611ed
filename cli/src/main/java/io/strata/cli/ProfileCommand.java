package io.strata.cli;

import io.strata.cli.stats.AccessLogLine;
import io.strata.cli.stats.Profile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@code strata profile LOGFILE|MOUNTPOINT}: what the applications asked of a mount, summed by
 * operation. Given a file of saved access log lines ({@code cat MOUNTPOINT/.accesslog > FILE}), it
 * replays them and prints one table; given a mountpoint, it reads its {@code .accesslog} live and
 * prints the table so far every interval (redrawn in place on a terminal) until interrupted or
 * {@code --duration} ends.
 */
@Command(name = "profile", sortOptions = false,
        description = {"Sum a mount's access log by operation: count, errors, total and average time.",
                "LOGFILE: replay saved .accesslog lines; MOUNTPOINT: read its .accesslog live."})
final class ProfileCommand extends StrataSubcommand {
    static final String ACCESS_LOG = ".accesslog";

    @Parameters(paramLabel = "LOGFILE|MOUNTPOINT", description = "A saved access log, or a Strata mount.")
    Path source;

    @Option(names = "--interval", defaultValue = "2", paramLabel = "SECONDS",
            description = "Live: seconds between tables (default: ${DEFAULT-VALUE}).")
    double interval;

    @Option(names = "--duration", defaultValue = "0", paramLabel = "SECONDS",
            description = "Live: stop after this long; 0 runs until interrupted (default: ${DEFAULT-VALUE}).")
    double duration;

    @Option(names = "--uid", paramLabel = "UID", description = "Only operations of this user.")
    Integer uid;

    @Option(names = "--pid", paramLabel = "PID", description = "Only operations of this process.")
    Integer pid;

    @Option(names = "--op", paramLabel = "OP", description = "Only this operation (e.g. lookup, read).")
    String op;


    @Override
    int run() throws Exception {
        if (!Files.exists(source)) {
            throw CliException.badInput(source + " does not exist; give a saved access log or a Strata mountpoint");
        }
        if (interval <= 0 || duration < 0) {
            throw CliException.badInput("--interval must be above 0 and --duration 0 or more");
        }
        Profile profile = new Profile(filter());
        if (Files.isDirectory(source)) {
            return live(profile, source.resolve(ACCESS_LOG));
        }
        try (BufferedReader reader = Files.newBufferedReader(source, StandardCharsets.UTF_8)) {
            reader.lines().map(AccessLogLine::parse).flatMap(Optional::stream).forEach(profile::add);
        }
        print(profile, false);
        return ExitCodes.OK;
    }

    private Predicate<AccessLogLine> filter() {
        return line -> (uid == null || line.uid() == uid) && (pid == null || line.pid() == pid)
                && (op == null || line.op().equals(op));
    }

    /**
     * Reads the live log on this thread; the log answers a keep-alive line at least every second, so
     * the tables and the end come on time even when the mount is idle.
     */
    private int live(Profile profile, Path log) throws IOException {
        if (!Files.exists(log)) {
            throw CliException.badInput(source + " has no " + ACCESS_LOG + ": give the root of a Strata mount, or a"
                    + " saved access log");
        }
        boolean inPlace = onTerminal();
        long start = System.nanoTime();
        long nextTable = start + (long) (interval * 1e9);
        long end = duration > 0 ? start + (long) (duration * 1e9) : Long.MAX_VALUE;
        try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                AccessLogLine.parse(line).ifPresent(profile::add);
                long now = System.nanoTime();
                if (now >= nextTable || now >= end) {
                    print(profile, inPlace);
                    nextTable = now + (long) (interval * 1e9);
                }
                if (now >= end) {
                    break;
                }
            }
        }
        return ExitCodes.OK;
    }

    private void print(Profile profile, boolean inPlace) {
        List<String> table = profile.table();
        if (inPlace) {
            out().print("\u001b[H\u001b[2J"); // home and clear: the table replaces the last one
        }
        table.forEach(out()::println);
        out().println(profile.lines() + " operations");
        if (!inPlace) {
            out().println();
        }
        out().flush();
    }
}
