/**
 * What {@code strata stats} and {@code strata profile} read and show: samples of a mount's
 * {@code .stats} file and the rates between two of them ({@link io.strata.cli.stats.StatsSample},
 * {@link io.strata.cli.stats.StatsView}), and the access log's lines summed by operation
 * ({@link io.strata.cli.stats.AccessLogLine}, {@link io.strata.cli.stats.Profile}).
 */
package io.strata.cli.stats;
