package io.strata.cli.objbench;

import static java.util.Objects.requireNonNull;

/**
 * What a run is about, for the head of its report. Nothing here is secret: the endpoint option
 * refuses credentials in the URL, and keys never get this far.
 *
 * @param target the bucket and prefix benchmarked, {@code s3://bucket[/prefix]}
 * @param endpoint the S3 endpoint, or a description of the default one
 * @param client the S3 client ({@code s3.client})
 * @param scratch the key prefix the run writes under (and removes); "" until it is chosen
 * @param settings the throughput phase's sizes and threads
 */
public record RunInfo(String target, String endpoint, String client, String scratch, ThroughputSettings settings) {
    public RunInfo {
        requireNonNull(target, "target is null");
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(client, "client is null");
        requireNonNull(scratch, "scratch is null");
        requireNonNull(settings, "settings is null");
    }

    public RunInfo withScratch(String prefix) {
        return new RunInfo(target, endpoint, client, prefix, settings);
    }
}
