package io.strata.cli;

import io.strata.client.Caller;
import io.strata.client.StrataFileSystem;
import io.strata.client.VolumeFormat;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.OptionsLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code strata format} on a real SQLite metastore over real directories. */
class FormatCommandTest {
    @TempDir
    Path dir;

    @Test
    void aFormattedVolumeOpensFromItsMetastoreAlone() throws IOException {
        Path source = Files.createDirectories(dir.resolve("source"));
        String metaUrl = "sqlite://" + dir.resolve("meta.db");

        Cli.Result result = Cli.run("format", metaUrl, source.toString());

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out()).startsWith("formatted volume ").contains(source.toString(), "page size 1MiB");
        var options = new OptionsLoader(OptionRegistry.load()).set("meta", metaUrl, "test")
                .set("state_dir", dir.resolve("state").toString(), "test").build();
        try (StrataFileSystem fs = StrataFileSystem.open(VolumeFormat.source(metaUrl), options)) {
            fs.release(fs.create("/written", 0644, new Caller(0, 0)));
        }
        assertThat(source.resolve("written")).exists();
    }

    @Test
    void formattingAgainWithTheSameSourceChangesNothing() throws IOException {
        Path source = Files.createDirectories(dir.resolve("source"));
        String metaUrl = "sqlite://" + dir.resolve("meta.db");
        Cli.run("format", metaUrl, source.toString(), "-o", "local_cache_page_size=256KiB");

        Cli.Result again = Cli.run("format", metaUrl, source.toString());

        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.out()).startsWith("volume already formatted, unchanged: ").contains("page size 256KiB");
    }

    @Test
    void aMetastoreOfAnotherSourceIsRefused() throws IOException {
        String metaUrl = "sqlite://" + dir.resolve("meta.db");
        Cli.run("format", metaUrl, Files.createDirectories(dir.resolve("first")).toString());

        Cli.Result other = Cli.run("format", metaUrl, Files.createDirectories(dir.resolve("second")).toString());

        assertThat(other.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(other.err()).startsWith("strata: format failed: ").contains("belongs to");
    }

    @Test
    void aMissingSourceIsRefusedBeforeTheMetastoreIsMade() {
        Path db = dir.resolve("meta.db");

        Cli.Result result = Cli.run("format", "sqlite://" + db, dir.resolve("missing").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("does not exist");
        assertThat(db).doesNotExist();
    }
}
