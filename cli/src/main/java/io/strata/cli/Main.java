package io.strata.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** {@code java -jar strata.jar ...}: runs {@link StrataCommand} and exits with its status. */
public final class Main {
    private static final Logger log = LoggerFactory.getLogger(Main.class);

    private Main() {}

    public static void main(String[] args) {
        CommandLine commandLine = StrataCommand.commandLine(System.getenv(), args);
        commandLine.setParameterExceptionHandler(Main::usageError);
        commandLine.setExecutionExceptionHandler((e, cl, parsed) -> {
            log.error("unexpected error", e);
            cl.getErr().println("strata: unexpected error: " + e + "; this is a bug, please report it with the trace above");
            return ExitCodes.FAILURE;
        });
        System.exit(commandLine.execute(args));
    }

    /** Bad usage: one line, and where to find the usage, instead of picocli's full help. */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        command.getErr().println("strata: " + e.getMessage() + "; run '"
                + command.getCommandSpec().qualifiedName() + " --help' for usage");
        CommandLine.UnmatchedArgumentException.printSuggestions(e, command.getErr());
        command.getErr().flush();
        return ExitCodes.BAD_INPUT;
    }
}
