package io.strata.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import static java.util.Objects.requireNonNull;

/** The root {@code strata} command: holds the subcommands and the environment they read. */
@Command(name = "strata",
        mixinStandardHelpOptions = true,
        versionProvider = StrataCommand.Version.class,
        description = "Strata: a caching FUSE client for object storage.",
        subcommands = {MountCommand.class, UmountCommand.class, WarmupCommand.class, InfoCommand.class,
                BenchCommand.class, DumpCommand.class, LoadCommand.class, FsckCommand.class, ConfCommand.class,
                StatsCommand.class, ProfileCommand.class, ObjbenchCommand.class, FormatCommand.class,
                HelpCommand.class})
public final class StrataCommand implements Callable<Integer> {
    /** The repository root, set by {@code bin/strata}; its {@code conf/strata.properties} is the default config. */
    static final String HOME_ENV = "STRATA_HOME";

    private final Map<String, String> environment;

    @Spec
    CommandSpec spec;

    public StrataCommand() {
        this(System.getenv());
    }

    /** For tests: runs the commands against {@code environment} instead of the process's own. */
    public StrataCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
    }

    Map<String, String> environment() {
        return environment;
    }

    /** {@code strata} alone: the usage, as an error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.BAD_INPUT;
    }

    /** The version from the build, via a filtered resource. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties properties = new Properties();
            try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new String[] {"strata " + properties.getProperty("version", "(development build)")};
        }
    }
}
