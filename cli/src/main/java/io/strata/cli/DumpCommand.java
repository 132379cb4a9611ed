package io.strata.cli;

import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.dump.DumpEncoding;
import io.strata.meta.dump.MetadataDump;
import io.strata.meta.dump.MetadataDump.DumpOptions;
import io.strata.meta.dump.MetadataDump.DumpResult;
import io.strata.meta.dump.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code strata dump META_URL FILE}: writes a volume's metadata to one JSON document (the format is
 * in io.strata.meta.dump.DumpFormat), streamed, in bounded memory; {@code FILE.gz} compressed,
 * {@code -} to stdout; the same document in binary (Smile, with a checksummed trailer) for
 * {@code FILE.sdump} or {@code --format binary}. Settings that hold secrets are left out unless
 * {@code --keep-secrets}.
 */
@Command(name = "dump", sortOptions = false,
        description = {"Back up a volume's metadata to FILE (one JSON document; FILE.gz compressed; - for stdout;",
                "binary, smaller and faster, for FILE.sdump or FILE.sdump.gz).",
                "'strata load' reads either back into any engine."})
final class DumpCommand extends StrataSubcommand {
    @Parameters(index = "0", paramLabel = "META_URL",
            description = "The volume's metastore: sqlite:///path/meta.db, jdbc:postgresql://host/db,"
                    + " jdbc:mariadb://host/db, redis://host/db.")
    String metaUrl;

    @Parameters(index = "1", paramLabel = "FILE", description = "Where to write the dump; - for stdout.")
    String file;

    @Option(names = "--keep-secrets", description = "Keep settings that hold secrets (left out by default).")
    boolean keepSecrets;

    @Option(names = "--format", paramLabel = "json|binary",
            description = "json (the interchange format) or binary (Smile with a checksum; half the size);"
                    + " default: binary for FILE ending in .sdump or .sdump.gz, json otherwise.")
    String format;


    /** Where {@code -} writes; stdout unless a test says otherwise. */
    OutputStream stdout = System.out;

    @Override
    int run() throws IOException {
        long start = System.nanoTime();
        DumpEncoding encoding = encoding();
        Progress progress = LoadCommand.progress(err(), onTerminal());
        DumpResult result;
        try (MetaStore store = LoadCommand.open(metaUrl); DumpFiles.Output output = DumpFiles.output(file, stdout)) {
            try {
                result = MetadataDump.dump(store, output.stream(), encoding,
                        DumpOptions.defaults().withKeepSecrets(keepSecrets), progress);
                output.commit();
            } catch (UnsupportedOperationException e) {
                throw CliException.failure(MetaStoreUrls.redact(metaUrl) + " cannot be dumped: " + e.getMessage());
            } catch (IOException e) {
                throw CliException.failure("dump of " + MetaStoreUrls.redact(metaUrl) + " failed: "
                        + Messages.describe(e) + (file.equals(DumpFiles.STDIO) ? "" : "; " + file + " was not written"));
            }
        }
        if (!result.secretsRemoved().isEmpty()) {
            progress.warn("left out the secret settings " + String.join(", ", result.secretsRemoved())
                    + " (--keep-secrets keeps them)");
        }
        // the summary goes where the dump does not
        PrintWriter summary = file.equals(DumpFiles.STDIO) ? err() : out();
        summary.println(String.format(Locale.ROOT, "dumped %,d entries of %s to %s in %.1f s: %s", result.entries(),
                MetaStoreUrls.redact(metaUrl), file, (System.nanoTime() - start) / 1e9, result.consistency()));
        return ExitCodes.OK;
    }

    private DumpEncoding encoding() {
        if (format == null) {
            return DumpFiles.encoding(file);
        }
        return switch (format) {
            case "json" -> DumpEncoding.JSON;
            case "binary" -> DumpEncoding.BINARY;
            default -> throw CliException.badInput("--format must be json or binary, not \"" + format + "\"");
        };
    }
}
