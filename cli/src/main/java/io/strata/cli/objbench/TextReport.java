package io.strata.cli.objbench;

import io.strata.core.conf.DataSize;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** The report for people: a line per check and a row per throughput item, each printed when it is known. */
public final class TextReport implements Report {
    private static final String ROW = "  %-22s %-18s %s%n";

    private final PrintWriter out;
    private final Map<CheckResult.Outcome, Integer> outcomes = new EnumMap<>(CheckResult.Outcome.class);
    private boolean checked;

    public TextReport(PrintWriter out) {
        this.out = requireNonNull(out, "out is null");
    }

    @Override
    public void start(RunInfo run) {
        out.printf("objbench %s (endpoint %s, client %s; writing under %s, removed afterwards)%n", run.target(),
                run.endpoint(), run.client(), run.scratch());
        out.flush();
    }

    @Override
    public void startChecks(int checks) {
        checked = true;
        out.printf("%nfunctional checks (%d)%n", checks);
        out.flush();
    }

    @Override
    public void check(CheckResult result) {
        outcomes.merge(result.outcome(), 1, Integer::sum);
        out.printf("  %-22s %s%n", result.check(), result.shown());
        out.flush();
    }

    @Override
    public void startThroughput(ThroughputSettings settings) {
        out.printf("%nthroughput (%d thread%s; big object %s in %s blocks; %d small objects of %s)%n",
                settings.threads(), settings.threads() == 1 ? "" : "s", DataSize.ofBytes(settings.bigObjectSize()),
                DataSize.ofBytes(settings.blockSize()), settings.smallObjects(),
                DataSize.ofBytes(settings.smallObjectSize()));
        out.printf(ROW, "ITEM", "VALUE", "COST");
        out.flush();
    }

    @Override
    public void row(ThroughputRow row) {
        out.printf(ROW, row.item(), row.value(), row.cost());
        out.flush();
    }

    @Override
    public void finish(String error) {
        if (checked) {
            out.printf(Locale.ROOT, "%nchecks: %d pass, %d failed, %d not supported%n",
                    outcomes.getOrDefault(CheckResult.Outcome.PASS, 0),
                    outcomes.getOrDefault(CheckResult.Outcome.FAILED, 0),
                    outcomes.getOrDefault(CheckResult.Outcome.NOT_SUPPORTED, 0));
        }
        out.flush();
    }
}
