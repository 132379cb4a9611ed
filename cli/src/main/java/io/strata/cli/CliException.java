package io.strata.cli;

/**
 * Ends a command with one line for the user ({@code strata: <what is wrong>; <what to do>}) and
 * an exit status from {@link ExitCodes}.
 */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    private CliException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    /** The user gave something unusable; exit {@link ExitCodes#BAD_INPUT}. */
    static CliException badInput(String message) {
        return new CliException(ExitCodes.BAD_INPUT, message);
    }

    /** Something failed at run time; exit {@link ExitCodes#FAILURE}. */
    static CliException failure(String message) {
        return new CliException(ExitCodes.FAILURE, message);
    }

    int exitCode() {
        return exitCode;
    }
}
