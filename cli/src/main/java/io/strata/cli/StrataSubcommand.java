package io.strata.cli;

import io.strata.core.conf.OptionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What every subcommand shares: picocli's writers, the environment of the root command, and the
 * rule that a {@link CliException} or {@link OptionException} ends the command with one line on
 * stderr, prefixed {@code strata: }, and its exit code. Handled here rather than in an
 * execution-exception handler so that commands behave the same when tests run them in-process.
 */
abstract class StrataSubcommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    StrataCommand root;

    private static final String HELP_SHORT = "-h";
    private static final String HELP_LONG = "--help";
    private static final String HELP_DESCRIPTION = "Show this help message and exit.";

    /** {@code strata <command> --help}: the usage that every usage error points to. */
    @Option(names = {HELP_SHORT, HELP_LONG}, usageHelp = true, description = HELP_DESCRIPTION)
    boolean helpRequested;

    /** Overrides terminal detection, for tests: true draws bars and redraws in place, false prints lines. */
    Boolean terminal;

    @Override
    public final Integer call() throws Exception {
        try {
            return run();
        } catch (CliException e) {
            error(e.getMessage());
            return e.exitCode();
        } catch (OptionException e) {
            error(e.getMessage());
            return ExitCodes.BAD_INPUT;
        } finally {
            out().flush();
            err().flush();
        }
    }

    /**
     * For a command declared in code ({@link CommandSpec#wrapWithoutInspection}): takes what picocli
     * injects into an annotated one (its spec and its parent) and declares the {@code --help} option.
     */
    void declaredInCode(CommandSpec spec, StrataCommand root) {
        this.spec = spec;
        this.root = root;
        spec.addOption(FieldBinding.bind(helpOption(), () -> helpRequested, (Boolean value) -> helpRequested = value)
                .initialValue(false).build());
    }

    /** {@code -h, --help} as {@link #helpRequested} declares it, for a command declared in code. */
    static OptionSpec.Builder helpOption() {
        return OptionSpec.builder(HELP_SHORT, HELP_LONG).usageHelp(true).type(boolean.class)
                .description(HELP_DESCRIPTION);
    }

    /** The command's work; returns an {@link ExitCodes} value or throws {@link CliException}. */
    abstract int run() throws Exception;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** One line on stderr: {@code strata: <message>}. */
    void error(String message) {
        err().println("strata: " + message);
        err().flush();
    }

    /** Whether output goes to a terminal (bars, lines redrawn in place, colours) or to a file or pipe. */
    boolean onTerminal() {
        return terminal != null ? terminal : System.console() != null;
    }

    Map<String, String> environment() {
        return root != null ? root.environment() : System.getenv();
    }
}
