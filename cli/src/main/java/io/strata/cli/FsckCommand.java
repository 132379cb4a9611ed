package io.strata.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.strata.client.SessionLeftovers;
import io.strata.client.StrataFileSystem;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.fsck.Fsck;
import io.strata.meta.fsck.FsckReport;
import io.strata.meta.fsck.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.Optional;

/**
 * {@code strata fsck META_URL}: checks a volume's namespace invariants (io.strata.meta.fsck.Fsck
 * says which) and, when the volume's under storage can be opened, each file's data there and the
 * data a session sweep cut short left there ({@link SessionLeftovers}); {@code --repair} repairs
 * what can be repaired safely. Exit status {@link ExitCodes#PROBLEMS}
 * while problems remain.
 */
@Command(name = "fsck", sortOptions = false,
        description = {"Check a volume's metadata: the SQLite file itself, link counts,",
                "primary links, counters, entries without an inode, unreachable inodes,",
                "each file in the under storage, and data in it that a session sweep",
                "cut short left behind. A dry run unless --repair.",
                "Repair a volume that no mount is using."})
final class FsckCommand extends StrataSubcommand {
    @Parameters(index = "0", paramLabel = "META_URL",
            description = "The volume's metastore: sqlite:///path/meta.db, jdbc:postgresql://host/db,"
                    + " jdbc:mariadb://host/db, redis://host/db.")
    String metaUrl;

    @Option(names = "--repair", description = "Repair what can be repaired safely, and say what was done.")
    boolean repair;

    @Option(names = "--json", description = "Print the report as one JSON document.")
    boolean json;

    @Option(names = "--skip-ufs", description = "Do not compare the files with the under storage.")
    boolean skipUfs;

    @Mixin
    ConfigOptions config;

    @Override
    int run() throws IOException {
        Options options = config.bind(OptionRegistry.load(), environment());
        String shown = MetaStoreUrls.redact(metaUrl);
        FsckReport report;
        String ufsShown;
        try (MetaStore store = LoadCommand.open(metaUrl)) {
            Optional<String> ufsUri = skipUfs ? Optional.empty() : store.getSetting(StrataFileSystem.UFS_URI_SETTING);
            try (UnderFileSystem ufs = ufsUri.map(uri -> openUfs(uri, options)).orElse(null)) {
                ufsShown = ufs == null ? null : ufs.uri().toString();
                report = Fsck.check(store, ufs, repair);
                if (ufs != null) {
                    report = report.with(SessionLeftovers.check(store, ufs, repair));
                }
            } catch (UnsupportedOperationException e) {
                throw CliException.failure(shown + " cannot be checked: " + e.getMessage());
            } catch (IOException e) {
                throw CliException.failure("fsck of " + shown + " failed: " + Messages.describe(e));
            }
        }
        if (json) {
            writeJson(report, shown, ufsShown);
        } else {
            writeText(report, shown, ufsShown);
        }
        return report.clean() ? ExitCodes.OK : ExitCodes.PROBLEMS;
    }

    /** The volume's under storage, or null (with a warning) when it cannot be opened here. */
    private UnderFileSystem openUfs(String uri, Options options) {
        try {
            return UnderFileSystems.open(URI.create(uri), options);
        } catch (IOException | RuntimeException e) {
            error("warning: the under storage is not checked: cannot open it (" + Messages.describe(e)
                    + "); give its options with -o as to 'strata mount', or --skip-ufs");
            return null;
        }
    }

    private void writeText(FsckReport report, String shown, String ufs) {
        PrintWriter out = out();
        out.println("fsck of " + shown + ": " + report.consistency());
        for (Problem problem : report.problems()) {
            out.println(problem.kind().label() + "  " + problem.path()
                    + (problem.ino() > 0 ? "  (inode " + problem.ino() + ")" : "") + ": " + problem.detail());
            if (problem.repairable()) {
                out.println("    " + (problem.repaired() ? "repaired: " : "repair: ") + problem.repair());
            } else {
                out.println("    not repairable by fsck");
            }
        }
        out.println("checked " + report.inodes() + " inodes, " + report.entries() + " names, "
                + (report.ufsFiles() < 0 ? "the under storage not checked"
                        : report.ufsFiles() + " files in " + ufs));
        if (report.problems().isEmpty()) {
            out.println("clean: no problems found");
            return;
        }
        String summary = report.problems().size() + " problems: " + report.repaired() + " repaired, "
                + report.remaining() + " remain";
        if (report.repairable() > 0) {
            summary += "; " + report.repairable() + " can be repaired with --repair";
        }
        out.println(summary);
    }

    private void writeJson(FsckReport report, String shown, String ufs) throws IOException {
        PrintWriter out = out();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("metastore", shown);
            json.writeStringField("consistency", report.consistency());
            json.writeStringField("ufs", ufs);
            json.writeNumberField("inodes", report.inodes());
            json.writeNumberField("entries", report.entries());
            json.writeNumberField("orphans", report.orphans());
            json.writeNumberField("ufs_files", report.ufsFiles());
            json.writeBooleanField("repair", repair);
            json.writeArrayFieldStart("problems");
            for (Problem problem : report.problems()) {
                json.writeStartObject();
                json.writeStringField("kind", problem.kind().label());
                json.writeNumberField("ino", problem.ino());
                json.writeStringField("path", problem.path());
                json.writeStringField("detail", problem.detail());
                json.writeStringField("repair", problem.repair());
                json.writeBooleanField("repaired", problem.repaired());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("remaining", report.remaining());
            json.writeBooleanField("clean", report.clean());
            json.writeEndObject();
        }
        out.println();
    }
}
