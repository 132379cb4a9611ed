/**
 * {@code strata bench}'s parts: what to run ({@link io.strata.cli.bench.BenchSpec}), the timed
 * phases ({@link io.strata.cli.bench.BenchWorkload}) in a directory of their own
 * ({@link io.strata.cli.bench.BenchDirectory}), the rows and their thresholds
 * ({@link io.strata.cli.bench.BenchItem}), and the report as a table or JSON.
 */
package io.strata.cli.bench;
