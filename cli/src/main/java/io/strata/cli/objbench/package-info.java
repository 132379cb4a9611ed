/**
 * {@code strata objbench}: what an S3 store can do for Strata, and how fast.
 *
 * <p>{@link io.strata.cli.objbench.BucketClient} makes blocking requests through the S3 client a
 * mount would build from the same options. A run writes only under a fresh key prefix of its own
 * ({@link io.strata.cli.objbench.Scratch}), which it empties at the end whatever happened. First
 * {@link io.strata.cli.objbench.FunctionalChecks}: a check per request kind Strata relies on, each
 * {@code pass}, {@code failed: <reason>} or {@code not supported}. Then
 * {@link io.strata.cli.objbench.ThroughputBench}: a big object as blocks and many small objects,
 * several requests at a time, as rates and average latencies
 * ({@link io.strata.cli.objbench.ThroughputRow}). Results go to a
 * {@link io.strata.cli.objbench.Report} as they come: a table for people, JSON for scripts.
 */
package io.strata.cli.objbench;
