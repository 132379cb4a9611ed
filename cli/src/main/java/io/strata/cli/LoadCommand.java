package io.strata.cli;

import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.MetaStores;
import io.strata.meta.dump.LoadFailedException;
import io.strata.meta.dump.MalformedDumpException;
import io.strata.meta.dump.MetadataDump;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import io.strata.meta.dump.MetadataDump.LoadSummary;
import io.strata.meta.dump.Progress;
import io.strata.meta.dump.TargetNotEmptyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code strata load META_URL FILE}: loads a dump made by {@code strata dump} into an empty volume
 * of any engine, streamed and batched; nlink and the counters are recomputed from what is loaded
 * (a dumped nlink that disagrees is reported). A malformed or truncated dump fails with its byte
 * offset and leaves the volume empty.
 */
@Command(name = "load", sortOptions = false,
        description = {"Load a dump written by 'strata dump' (FILE, FILE.gz, or - for stdin; JSON or binary) into an empty volume.",
                "The volume must be empty unless --force, which replaces everything in it."})
final class LoadCommand extends StrataSubcommand {
    private static final long LINE_INTERVAL_NS = 5_000_000_000L;

    @Parameters(index = "0", paramLabel = "META_URL",
            description = "The volume to load into: sqlite:///path/meta.db, jdbc:postgresql://host/db,"
                    + " jdbc:mariadb://host/db, redis://host/db.")
    String metaUrl;

    @Parameters(index = "1", paramLabel = "FILE", description = "The dump; - for stdin.")
    String file;

    @Option(names = "--force", description = "Load into a volume that is not empty, replacing everything in it.")
    boolean force;


    /** Where {@code -} reads; stdin unless a test says otherwise. */
    InputStream stdin = System.in;

    @Override
    int run() throws IOException {
        long start = System.nanoTime();
        Progress progress = progress(err(), onTerminal());
        LoadSummary summary;
        try (InputStream in = DumpFiles.input(file, stdin); MetaStore store = open(metaUrl)) {
            summary = MetadataDump.load(store, in, LoadOptions.defaults().withForce(force), progress);
        } catch (TargetNotEmptyException e) {
            throw CliException.badInput(e.getMessage());
        } catch (LoadFailedException e) {
            String where = DumpFiles.gzip(file) && e.badDump() ? " (offsets count the uncompressed dump)" : "";
            throw e.badDump() ? CliException.badInput("cannot load " + file + ": " + e.getMessage() + where)
                    : CliException.failure("load of " + file + " failed: " + e.getMessage());
        } catch (MalformedDumpException e) {
            throw CliException.badInput("cannot load " + file + ": " + e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw CliException.failure(MetaStoreUrls.redact(metaUrl) + " cannot be loaded into: " + e.getMessage());
        }
        out().println(String.format(Locale.ROOT, "loaded %,d entries (%,d inodes) into %s in %.1f s%s",
                summary.entries(), summary.inodes(), MetaStoreUrls.redact(metaUrl), (System.nanoTime() - start) / 1e9,
                summary.nlinkMismatches() == 0 ? ""
                        : "; " + summary.nlinkMismatches() + " dumped nlink values were wrong and were recomputed"));
        return ExitCodes.OK;
    }

    /** The metastore at {@code url}: a malformed URL is bad input, one that cannot be opened a failure. */
    static MetaStore open(String url) {
        try {
            return MetaStores.open(url);
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(e.getMessage());
        } catch (IOException e) {
            throw CliException.failure("cannot open " + MetaStoreUrls.redact(url) + ": " + Messages.describe(e));
        }
    }

    /** A bar on a terminal, a line every few seconds otherwise. */
    static Progress progress(PrintWriter err, boolean bar) {
        return bar ? Progress.bar(err, System::nanoTime) : Progress.lines(err, System::nanoTime, LINE_INTERVAL_NS);
    }
}
