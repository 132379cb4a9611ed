package io.strata.cli;

import io.strata.client.VolumeFormat;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.MetaStores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.IOException;

/**
 * {@code strata format META_URL SOURCE}: creates a volume without mounting it, as
 * {@code juicefs format} does, for clusters that reach it only through {@code strata://} (Spark).
 * The metastore is bound to the source and keeps the page size; a mount or a Hadoop client given
 * the same metastore is then the same volume.
 */
@Command(name = "format", sortOptions = false,
        description = {"Create a volume: bind the metastore META_URL to SOURCE (a directory or s3://bucket[/prefix]),"
                + " without mounting. Mounts and strata:// clients given META_URL then share it.",
                "-o sets the options needed to reach SOURCE (s3.endpoint...) and local_cache_page_size, kept"
                        + " with the volume. Formatting again with the same SOURCE changes nothing."})
final class FormatCommand extends StrataSubcommand {
    @Parameters(index = "0", paramLabel = "META_URL", description = "The metastore's URL (see the meta option).")
    String metaUrl;

    @Parameters(index = "1", paramLabel = "SOURCE", description = "A directory, or an S3 bucket (s3://bucket[/prefix]).")
    String source;

    @Mixin
    ConfigOptions config;

    @Override
    int run() {
        if (!MetaStores.supports(metaUrl)) {
            throw CliException.badInput("unsupported metastore URL '" + MetaStoreUrls.redact(metaUrl) + "'; give one"
                    + " such as sqlite:///var/lib/strata/v.db, jdbc:postgresql://host/db or redis://host/1");
        }
        Options options = config.bind(OptionRegistry.load(), environment());
        MountCommand.Source resolved = MountCommand.resolveSource(source);
        VolumeFormat.Formatted formatted;
        try {
            formatted = VolumeFormat.format(metaUrl, resolved.uri(), options);
        } catch (IOException e) {
            throw CliException.failure("format failed: " + Messages.describe(e));
        }
        out().println((formatted.created() ? "formatted volume " : "volume already formatted, unchanged: ")
                + formatted.volumeId() + " over " + formatted.source() + " in metastore "
                + MetaStoreUrls.redact(metaUrl) + " (page size " + DataSize.ofBytes(formatted.pageSize()) + ")");
        return ExitCodes.OK;
    }
}
