package io.strata.cli.bench;

/**
 * What {@code strata bench} does: each of {@code threads} threads writes and reads one big file
 * of {@code bigFileSize} bytes, then {@code smallFileCount} files of {@code smallFileSize}, all
 * in blocks of at most {@code blockSize}. Checked by {@code strata bench} ({@code io.strata.cli.BenchCommand}), which names the options.
 */
public record BenchSpec(int blockSize, long bigFileSize, long smallFileSize, int smallFileCount, int threads) {
    public BenchSpec {
        if (blockSize < 1 || bigFileSize < 1 || smallFileSize < 1 || smallFileCount < 1 || threads < 1) {
            throw new IllegalArgumentException("every size and count must be positive: " + blockSize + ", "
                    + bigFileSize + ", " + smallFileSize + ", " + smallFileCount + ", " + threads);
        }
    }

    public long smallFiles() {
        return (long) smallFileCount * threads;
    }
}
