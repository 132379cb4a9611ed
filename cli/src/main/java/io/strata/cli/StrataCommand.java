package io.strata.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import static java.util.Objects.requireNonNull;

/** The root {@code strata} command: holds the subcommands and the environment they read. */
@Command(name = "strata",
        mixinStandardHelpOptions = true,
        versionProvider = StrataCommand.Version.class,
        description = "Strata: a caching FUSE client for object storage.")
public final class StrataCommand implements Callable<Integer> {
    /** The subcommands, in the order the usage lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(MountCommand.class, UmountCommand.class,
            WarmupCommand.class, InfoCommand.class, BenchCommand.class, DumpCommand.class, LoadCommand.class,
            FsckCommand.class, ConfCommand.class, StatsCommand.class, ProfileCommand.class, ObjbenchCommand.class,
            FormatCommand.class, HelpCommand.class);

    /** The repository root, set by {@code bin/strata}; its {@code conf/strata.properties} is the default config. */
    static final String HOME_ENV = "STRATA_HOME";

    private final Map<String, String> environment;

    @Spec
    CommandSpec spec;

    /** Runs the commands against {@code environment}: the process's own, or a test's. */
    private StrataCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
    }

    Map<String, String> environment() {
        return environment;
    }

    /** The command line with every subcommand, over {@code environment}. */
    public static CommandLine commandLine(Map<String, String> environment) {
        return commandLine(environment, new String[0]);
    }

    /**
     * The command line to run {@code args} with. picocli reads the annotations of every subcommand
     * it is given as it builds the line, which took 0.15-0.2 s of a fresh JVM's mount (wall
     * profile); so when the first argument names a subcommand, only that one is added. Anything
     * else (no subcommand, an option, {@code help}, a misspelt name, which picocli answers with
     * suggestions) gets them all.
     */
    public static CommandLine commandLine(Map<String, String> environment, String[] args) {
        CommandLine line = new CommandLine(new StrataCommand(environment));
        String first = args.length > 0 ? args[0] : "";
        List<Class<?>> named = SUBCOMMANDS.stream()
                .filter(command -> command != HelpCommand.class && names(command).contains(first))
                .toList();
        for (Class<?> command : named.isEmpty() ? SUBCOMMANDS : named) {
            line.addSubcommand(command);
        }
        return line;
    }

    private static List<String> names(Class<?> command) {
        Command annotation = command.getAnnotation(Command.class);
        List<String> names = new ArrayList<>(List.of(annotation.aliases()));
        names.add(annotation.name());
        return names;
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
