package io.strata.cli;

/**
 * What {@code strata bench} does: each of {@code threads} threads writes and reads one big file
 * of {@code bigFileSize} bytes, then {@code smallFileCount} files of {@code smallFileSize}, all
 * in blocks of at most {@code blockSize}. Checked by {@link BenchCommand}, which names the options.
 */
record BenchSpec(int blockSize, long bigFileSize, long smallFileSize, int smallFileCount, int threads) {
    BenchSpec {
        if (blockSize < 1 || bigFileSize < 1 || smallFileSize < 1 || smallFileCount < 1 || threads < 1) {
            throw new IllegalArgumentException("every size and count must be positive: " + blockSize + ", "
                    + bigFileSize + ", " + smallFileSize + ", " + smallFileCount + ", " + threads);
        }
    }

    long smallFiles() {
        return (long) smallFileCount * threads;
    }
}
