package io.strata.cli.objbench;

/**
 * Where a run's results go as they come: {@link TextReport} prints them at once for people,
 * {@link JsonReport} collects them into one document for scripts.
 */
public interface Report {
    void start(RunInfo run);

    /** The functional phase begins; {@code checks} results follow. */
    void startChecks(int checks);

    void check(CheckResult result);

    /** The throughput phase begins. */
    void startThroughput(ThroughputSettings settings);

    void row(ThroughputRow row);

    /** The run is over; {@code error} is why it stopped early, or null. */
    void finish(String error);
}
