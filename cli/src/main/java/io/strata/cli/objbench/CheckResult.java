package io.strata.cli.objbench;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of one functional check.
 *
 * @param check what was checked, e.g. "range get"
 * @param outcome pass, failed or not supported
 * @param reason why it failed; null unless it failed
 */
public record CheckResult(String check, Outcome outcome, String reason) {
    public enum Outcome {
        PASS("pass"), FAILED("failed"), NOT_SUPPORTED("not supported");

        private final String shown;

        Outcome(String shown) {
            this.shown = shown;
        }

        public String shown() {
            return shown;
        }
    }

    public CheckResult {
        requireNonNull(check, "check is null");
        requireNonNull(outcome, "outcome is null");
        if ((outcome == Outcome.FAILED) != (reason != null)) {
            throw new IllegalArgumentException("a reason goes with a failure, and only with one: " + outcome);
        }
    }

    static CheckResult pass(String check) {
        return new CheckResult(check, Outcome.PASS, null);
    }

    static CheckResult failed(String check, String reason) {
        return new CheckResult(check, Outcome.FAILED, reason);
    }

    static CheckResult notSupported(String check) {
        return new CheckResult(check, Outcome.NOT_SUPPORTED, null);
    }

    /** {@code pass}, {@code failed: <reason>} or {@code not supported}. */
    public String shown() {
        return outcome == Outcome.FAILED ? "failed: " + reason : outcome.shown();
    }
}
