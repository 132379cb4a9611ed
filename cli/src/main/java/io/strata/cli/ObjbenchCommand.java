package io.strata.cli;

import io.strata.cli.objbench.BucketClient;
import io.strata.cli.objbench.CheckResult;
import io.strata.cli.objbench.FunctionalChecks;
import io.strata.cli.objbench.JsonReport;
import io.strata.cli.objbench.Report;
import io.strata.cli.objbench.RunInfo;
import io.strata.cli.objbench.Scratch;
import io.strata.cli.objbench.TextReport;
import io.strata.cli.objbench.ThroughputBench;
import io.strata.cli.objbench.ThroughputSettings;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.ufs.s3.S3Location;
import io.strata.core.ufs.s3.S3Options;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code strata objbench s3://bucket/prefix}: checks that an S3 store does what Strata asks of it
 * and measures how fast, through Strata's own S3 client and options (as JuiceFS's
 * {@code juicefs objbench} does for JuiceFS). The work is in {@link io.strata.cli.objbench}; this
 * class parses, binds the options, checks the bucket, and turns outcomes into exit codes.
 */
@Command(name = "objbench", sortOptions = false,
        description = {"Check that an S3 bucket does what Strata needs, then measure its throughput.",
                "Writes only under a new prefix (BUCKET_URI/strata-objbench-<time>-<id>/), removed afterwards."
                        + " S3 options as for 'strata mount': -o, STRATA_<KEY> variables, --conf FILE."})
final class ObjbenchCommand extends StrataSubcommand {
    @Parameters(index = "0", paramLabel = "BUCKET_URI", description = "The bucket to test: s3://bucket[/prefix].")
    String target;

    @Mixin
    ConfigOptions config;

    @Option(names = {"-p", "--threads"}, defaultValue = "4", paramLabel = "N",
            description = "Requests at once in the throughput phase (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--small-object-size", defaultValue = "128KiB", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Size of each small object (default: ${DEFAULT-VALUE}).")
    DataSize smallObjectSize;

    @Option(names = "--small-objects", defaultValue = "100", paramLabel = "N",
            description = "Number of small objects put, got, headed and deleted; 0 skips them (default: ${DEFAULT-VALUE}).")
    int smallObjects;

    @Option(names = "--big-object-size", defaultValue = "256MiB", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Size of the big object, put and got in blocks; 0 skips it (default: ${DEFAULT-VALUE}).")
    DataSize bigObjectSize;

    @Option(names = "--block-size", defaultValue = "4MiB", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Size of the big object's blocks, one object each (default: ${DEFAULT-VALUE}).")
    DataSize blockSize;

    @Option(names = "--skip-functional", description = "Skip the functional checks.")
    boolean skipFunctional;

    @Option(names = "--skip-throughput", description = "Skip the throughput phase.")
    boolean skipThroughput;

    @Option(names = "--json", description = "Print one JSON document instead of the text report.")
    boolean json;

    @Override
    int run() {
        ThroughputSettings settings = settings();
        S3Location location = location(target);
        Options options = config.bind(OptionRegistry.load(), environment());
        Report report = json ? new JsonReport(out()) : new TextReport(out());
        String endpoint = endpoint(options);
        int failed;
        String error;
        try (BucketClient bucket = BucketClient.open(location.bucket(), options)) {
            checkBucket(bucket, location, endpoint);
            // The report is finished before a signal's hook lets the JVM go.
            try (StopOnSignal signal = new StopOnSignal()) {
                Outcome outcome = runPhases(bucket, location, new RunInfo(location.toString(), endpoint,
                        options.get(S3Options.CLIENT).name().toLowerCase(Locale.ROOT), "", settings), report, signal);
                failed = outcome.failedChecks();
                error = outcome.error();
                report.finish(error);
            }
        }
        if (error != null) {
            throw CliException.failure(error);
        }
        if (failed > 0) {
            throw CliException.failure(failed + " functional check" + (failed == 1 ? "" : "s") + " failed (see the"
                    + " report); Strata needs every check but the 'not supported' ones to pass");
        }
        return ExitCodes.OK;
    }

    /** How the phases ended: the failed checks, and why the run stopped early (null if it did not). */
    private record Outcome(int failedChecks, String error) {}

    /** Both phases (unless skipped) under a scratch prefix, emptied whatever happens. */
    private Outcome runPhases(BucketClient bucket, S3Location location, RunInfo info, Report report,
                              StopOnSignal signal) {
        int[] failed = {0};
        try (Scratch scratch = Scratch.create(bucket, location.prefix(), this::error)) {
            report.start(info.withScratch(scratch.prefix()));
            if (!skipFunctional) {
                FunctionalChecks checks = new FunctionalChecks(bucket, scratch.prefix() + "functional/",
                        signal::received);
                report.startChecks(checks.names().size());
                checks.run(result -> {
                    if (result.outcome() == CheckResult.Outcome.FAILED) {
                        failed[0]++;
                    }
                    report.check(result);
                });
            }
            if (!skipThroughput) {
                report.startThroughput(info.settings());
                new ThroughputBench(bucket, scratch.prefix() + "throughput/", info.settings(), signal::received)
                        .run(report::row);
            }
        } catch (IOException e) {
            return new Outcome(failed[0], "throughput phase stopped: " + oneLine(e.getMessage()));
        }
        return new Outcome(failed[0], signal.received() ? "stopped by a signal" : null);
    }

    private ThroughputSettings settings() {
        try {
            return new ThroughputSettings(threads, smallObjectSize.bytes(), smallObjects, bigObjectSize.bytes(),
                    blockSize.bytes());
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(e.getMessage());
        }
    }

    /** {@code s3://bucket[/prefix]}, or one line saying what form is expected. */
    static S3Location location(String text) {
        if (!text.toLowerCase(Locale.ROOT).startsWith("s3://")) {
            throw CliException.badInput("'" + text + "' is not an s3:// URI; give the bucket to test as"
                    + " s3://bucket or s3://bucket/prefix");
        }
        try {
            return S3Location.parse(new URI(text));
        } catch (URISyntaxException | IllegalArgumentException e) {
            String reason = e instanceof URISyntaxException ? "bad S3 URI '" + text + "'" : e.getMessage();
            throw CliException.badInput(reason + "; give the bucket to test as s3://bucket or s3://bucket/prefix");
        }
    }

    /** The endpoint as the user knows it: s3.endpoint, else AWS S3 in s3.region. */
    private static String endpoint(Options options) {
        String endpoint = options.get(S3Options.ENDPOINT);
        if (endpoint != null) {
            return endpoint;
        }
        String region = options.get(S3Options.REGION);
        return "AWS S3 (" + (region != null ? region : "the SDK's default region") + ")";
    }

    /** HeadBucket first, so that a wrong name, endpoint or key is one clear line, not 14 failed checks. */
    private static void checkBucket(BucketClient bucket, S3Location location, String endpoint) {
        try {
            bucket.checkBucket();
        } catch (IOException e) {
            if (BucketClient.isNotFound(e)) {
                throw CliException.failure("bucket '" + location.bucket() + "' does not exist at " + endpoint
                        + "; create it, or check the bucket name and -o s3.endpoint");
            }
            if (BucketClient.isAccessDenied(e)) {
                throw CliException.failure("access to bucket '" + location.bucket() + "' at " + endpoint + " denied"
                        + " (" + oneLine(e.getMessage()) + "); check the credentials (AWS_ACCESS_KEY_ID and"
                        + " AWS_SECRET_ACCESS_KEY, ~/.aws, or -o s3a.accessKeyId=...,s3a.secretKey=...) and s3.region");
            }
            throw CliException.failure("cannot use bucket '" + location.bucket() + "' at " + endpoint + " ("
                    + oneLine(e.getMessage()) + "); check -o s3.endpoint, s3.region and the credentials");
        }
    }

    /**
     * Ctrl-C or SIGTERM mid-run: the JVM runs this hook, which asks the run to stop (requests in
     * flight finish, no new ones start) and waits until the scratch prefix is emptied on the run's
     * own path, so the blocks of a big object are not left behind. Deleting from the hook itself
     * would race with requests still writing.
     */
    private static final class StopOnSignal implements AutoCloseable {
        private static final long CLEANUP_TIMEOUT_SECONDS = 60;

        private final AtomicBoolean received = new AtomicBoolean();
        private final CountDownLatch cleanedUp = new CountDownLatch(1);
        private final Thread hook = new Thread(this::stopAndWait, "strata-objbench-stop");

        StopOnSignal() {
            Runtime.getRuntime().addShutdownHook(hook);
        }

        boolean received() {
            return received.get();
        }

        private void stopAndWait() {
            received.set(true);
            try {
                cleanedUp.await(CLEANUP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The run is over and its scratch prefix emptied. */
        @Override
        public void close() {
            cleanedUp.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it returns now
            }
        }
    }

    private static String oneLine(String message) {
        return message == null ? "no message" : message.replaceAll("\\s*\\R\\s*", " ");
    }

    /** Sizes as the options take them: 4096, 512KB, 1MiB, 5GB. */
    static final class SizeConverter implements ITypeConverter<DataSize> {
        @Override
        public DataSize convert(String value) {
            try {
                return DataSize.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "': " + e.getMessage());
            }
        }
    }
}
