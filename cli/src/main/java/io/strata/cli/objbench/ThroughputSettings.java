package io.strata.cli.objbench;

/**
 * What the throughput phase moves: {@code smallObjects} objects of {@code smallObjectSize} each put,
 * got, headed and deleted, and one big object of {@code bigObjectSize} put and got as blocks of
 * {@code blockSize} (one object per block, as Strata and JuiceFS store files), {@code threads} at a
 * time. A count or size of 0 skips its part.
 */
public record ThroughputSettings(int threads, long smallObjectSize, int smallObjects, long bigObjectSize,
                                 long blockSize) {
    /** Blocks and small objects are held in memory whole, so they must fit a Java array. */
    static final long MAX_OBJECT_SIZE = 1L << 30;
    static final long MAX_BLOCKS = 1_000_000;

    public ThroughputSettings {
        check(threads >= 1, "threads must be at least 1, not " + threads);
        check(smallObjects >= 0, "the number of small objects must not be negative, not " + smallObjects);
        check(smallObjectSize >= 0 && smallObjectSize <= MAX_OBJECT_SIZE,
                "the small object size must be from 0 to 1GiB, not " + smallObjectSize);
        check(bigObjectSize >= 0, "the big object size must not be negative, not " + bigObjectSize);
        check(blockSize >= 1 && blockSize <= MAX_OBJECT_SIZE, "the block size must be from 1B to 1GiB, not "
                + blockSize);
        check(bigObjectSize / blockSize < MAX_BLOCKS, "the big object must be fewer than " + MAX_BLOCKS
                + " blocks; raise the block size");
    }

    /** The blocks of the big object; the last may be shorter. */
    int blocks() {
        return (int) ((bigObjectSize + blockSize - 1) / blockSize);
    }

    long blockLength(int block) {
        return Math.min(blockSize, bigObjectSize - block * blockSize);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
