/** Meters shared by the parts that time their operations: {@link io.strata.core.metrics.OpMeters}. */
package io.strata.core.metrics;
