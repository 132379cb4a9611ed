package io.strata.meta.dump;

/**
 * A volume's counters in engine-independent terms.
 *
 * @param nextInode the next inode number the volume hands out (every number in use is smaller)
 * @param inodes how many inodes exist, the root included
 * @param usedBytes the sum of the sizes of the FILE inodes
 */
public record DumpCounters(long nextInode, long inodes, long usedBytes) {}
