package io.strata.cli;

import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The root {@code strata} command: holds the subcommands and the environment they read. Declared
 * in code, as {@code mount} is ({@link MountCommand}), so that a mount reads no annotations.
 */
public final class StrataCommand implements Callable<Integer> {
    private static final String HELP = "help";

    /**
     * The subcommands by the names they answer to, in the order the usage lists them; every one but
     * {@code mount} is declared by its annotations, and its names here are checked against them
     * (StrataCommandTest), so that finding the one a command line names reads no annotation.
     */
    private static final Map<String, Subcommand> SUBCOMMANDS = byOwnName(
            new Subcommand(List.of(MountCommand.NAME), MountCommand::commandLine),
            annotated(UmountCommand.class, "umount", "unmount"),
            annotated(WarmupCommand.class, "warmup"),
            annotated(InfoCommand.class, "info"),
            annotated(BenchCommand.class, "bench"),
            annotated(DumpCommand.class, "dump"),
            annotated(LoadCommand.class, "load"),
            annotated(FsckCommand.class, "fsck"),
            annotated(ConfCommand.class, "conf"),
            annotated(StatsCommand.class, "stats"),
            annotated(ProfileCommand.class, "profile"),
            annotated(ObjbenchCommand.class, "objbench"),
            annotated(FormatCommand.class, "format"),
            annotated(HelpCommand.class, HELP));

    /**
     * A subcommand: the names it answers to (its own first, then the aliases its command line
     * declares), and how to make its command line under a root.
     */
    record Subcommand(List<String> names, Function<StrataCommand, CommandLine> commandLine) {
        Subcommand {
            names = List.copyOf(names);
            if (names.isEmpty()) {
                throw new IllegalArgumentException("a subcommand needs a name");
            }
            requireNonNull(commandLine, "commandLine is null");
        }
    }

    private static Subcommand annotated(Class<?> command, String... names) {
        return new Subcommand(List.of(names), root -> new CommandLine(command));
    }

    private static Map<String, Subcommand> byOwnName(Subcommand... subcommands) {
        Map<String, Subcommand> byName = new LinkedHashMap<>();
        for (Subcommand subcommand : subcommands) {
            byName.put(subcommand.names().get(0), subcommand);
        }
        return Collections.unmodifiableMap(byName);
    }

    /** The subcommands, by their own names, in the order the usage lists them. */
    static Map<String, Subcommand> subcommands() {
        return SUBCOMMANDS;
    }

    /** The repository root, set by {@code bin/strata}; its {@code conf/strata.properties} is the default config. */
    static final String HOME_ENV = "STRATA_HOME";

    private final Map<String, String> environment;

    private CommandSpec spec;

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
        StrataCommand root = new StrataCommand(environment);
        CommandLine line = new CommandLine(root.declare());
        String first = args.length > 0 ? args[0] : "";
        List<Subcommand> named = SUBCOMMANDS.values().stream()
                .filter(command -> !command.names().get(0).equals(HELP) && command.names().contains(first))
                .toList();
        for (Subcommand command : named.isEmpty() ? SUBCOMMANDS.values() : named) {
            line.addSubcommand(command.names().get(0), command.commandLine().apply(root));
        }
        return line;
    }

    /** This command's spec, as {@code mixinStandardHelpOptions} and {@code versionProvider} would make it. */
    private CommandSpec declare() {
        spec = CommandSpec.wrapWithoutInspection(this).name("strata").versionProvider(new Version());
        spec.usageMessage().description("Strata: a caching FUSE client for object storage.");
        spec.addOption(StrataSubcommand.helpOption().build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
                .description("Print version information and exit.").build());
        return spec;
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
