/**
 * Meters around any under storage: {@link io.strata.core.ufs.metrics.MeteredUnderFileSystem}
 * times each namespace operation and each read or write of an open file, and counts their bytes
 * and failures, the same way for a local directory and for S3. The S3 engine's own ranged GETs
 * are counted by the readahead's meters ({@code strata.readahead.*}).
 */
package io.strata.core.ufs.metrics;
