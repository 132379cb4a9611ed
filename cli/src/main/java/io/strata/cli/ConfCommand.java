package io.strata.cli;

import io.strata.core.conf.OptionRegistry;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code strata conf}: every option with its default, form and doc; {@code --markdown} for the
 * README table, {@code --properties} for {@code conf/strata.properties}, {@code --write-readme}
 * to refresh the table in place. Secret options are listed, their values never shown.
 */
@Command(name = "conf", sortOptions = false, description = "List every option with its default, form and doc.")
final class ConfCommand extends StrataSubcommand {
    @ArgGroup(exclusive = true)
    Format format = new Format();

    static final class Format {
        @Option(names = "--markdown", description = "Print the README options table (markdown).")
        boolean markdown;

        @Option(names = "--properties", description = "Print a strata.properties with every option commented out.")
        boolean properties;

        @Option(names = "--write-readme", paramLabel = "FILE",
                description = "Replace the table between the options:begin/end markers in FILE (the README).")
        Path readme;
    }

    @Override
    int run() {
        OptionRegistry registry = OptionRegistry.load();
        if (format.readme != null) {
            return writeReadme(format.readme, OptionDocs.markdown(registry));
        }
        String text = format.markdown ? OptionDocs.markdown(registry)
                : format.properties ? OptionDocs.properties(registry)
                : OptionDocs.text(registry);
        out().print(text);
        return ExitCodes.OK;
    }

    private int writeReadme(Path file, String table) {
        String readme;
        try {
            readme = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw CliException.badInput(file + " does not exist; give the README to update");
        } catch (IOException e) {
            throw CliException.failure("cannot read " + file + ": " + Messages.describe(e));
        }
        if (OptionDocs.readmeBlock(readme) == null) {
            throw CliException.badInput(file + " has no " + OptionDocs.README_BEGIN + " ... " + OptionDocs.README_END
                    + " markers; add them, on lines of their own, where the options table goes");
        }
        try {
            Files.writeString(file, OptionDocs.replaceReadmeBlock(readme, table));
        } catch (IOException e) {
            throw CliException.failure("cannot write " + file + ": " + Messages.describe(e));
        }
        out().println("updated the options table in " + file);
        return ExitCodes.OK;
    }
}
