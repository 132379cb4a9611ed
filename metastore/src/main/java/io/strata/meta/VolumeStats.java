package io.strata.meta;

/** Volume-wide counters, for statfs. */
public record VolumeStats(long inodes, long usedBytes) {}
