package io.strata.client.metrics;

import io.strata.core.conf.Option;
import io.strata.core.conf.OptionGroup;
import io.strata.core.conf.OptionType;

import java.util.List;

/** Where the daemon serves its meters for Prometheus to scrape. */
public final class MetricsOptions implements OptionGroup {
    public static final Option<Integer> PORT = Option.builder("metrics_port", OptionType.INT)
            .defaultValue(0)
            .doc("Serve the meters at http://metrics_bind:metrics_port/metrics in Prometheus's text format"
                    + " (docs/METRICS.md); 0 serves none. The values are always readable in the mount's"
                    + " .stats file.")
            .check(port -> port >= 0 && port <= 65_535, "a TCP port from 0 to 65535")
            .build();

    public static final Option<String> BIND = Option.builder("metrics_bind", OptionType.STRING)
            .defaultValue("127.0.0.1")
            .doc("The address the metrics endpoint listens on; 0.0.0.0 for every interface (the meters"
                    + " show file counts and rates, never names or credentials).")
            .check(address -> !address.isBlank(), "an IP address or host name")
            .build();

    @Override
    public String title() {
        return "Metrics";
    }

    @Override
    public List<Option<?>> options() {
        return List.of(PORT, BIND);
    }
}
