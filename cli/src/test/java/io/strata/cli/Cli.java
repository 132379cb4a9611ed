package io.strata.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** Runs {@code strata} in-process with its own environment and captures exit code, stdout and stderr. */
final class Cli {
    private Cli() {}

    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    static Result run(String... args) {
        return run(Map.of(), args);
    }

    static Result run(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = StrataCommand.commandLine(environment, args)
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    /** The parsed subcommand object, for testing its methods without running it. */
    @SuppressWarnings("unchecked")
    static <T> T parse(Map<String, String> environment, String... args) {
        CommandLine.ParseResult parsed = StrataCommand.commandLine(environment, args).parseArgs(args);
        return (T) parsed.subcommand().commandSpec().userObject();
    }
}
