package io.strata.client;

/** What statfs reports, in blocks of {@code blockSize} bytes. */
public record FsStatistics(long blockSize, long totalBlocks, long freeBlocks, long availableBlocks, long files,
                           long freeFiles, int nameMax) {}
