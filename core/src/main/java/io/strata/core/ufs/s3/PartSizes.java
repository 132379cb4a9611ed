package io.strata.core.ufs.s3;

/**
 * Part sizes of a multipart upload whose total size is not known in advance (a file being
 * written): the first {@value #PARTS_PER_STEP} parts have the configured size, and the size
 * doubles every {@value #PARTS_PER_STEP} parts after that, up to S3's 5 GiB per part.
 *
 * <p>So small files use small parts (little memory, early uploads), and one object can still
 * reach S3's 5 TiB limit within its 10,000 parts from the smallest allowed first size (5 MiB:
 * 500 parts each of 5, 10, 20 ... 2,560 MiB, then 5 GiB parts, hold 26 TiB). With 8 MiB, parts
 * stay 8 MiB up to 4 GB, 16 MiB up to 12 GB, 128 MiB around 100 GB.
 */
final class PartSizes {
    /** S3's limit on the parts of one upload. */
    static final int MAX_PARTS = 10_000;
    /** S3's limit on an object's size. */
    static final long MAX_OBJECT_SIZE = 5L << 40;
    static final int PARTS_PER_STEP = 500;

    private PartSizes() {}

    /** The size of part {@code partNumber} (1-based) when the first is {@code first} bytes. */
    static long partSize(long first, int partNumber) {
        if (partNumber < 1 || partNumber > MAX_PARTS) {
            throw new IllegalArgumentException("part number out of 1.." + MAX_PARTS + ": " + partNumber);
        }
        int doublings = (partNumber - 1) / PARTS_PER_STEP;
        long size = first;
        for (int i = 0; i < doublings && size < S3Options.MAX_PART_SIZE; i++) {
            size <<= 1;
        }
        return Math.min(size, S3Options.MAX_PART_SIZE);
    }

    /** The most bytes an upload with this first part size can hold in its 10,000 parts. */
    static long capacity(long first) {
        long total = 0;
        for (int part = 1; part <= MAX_PARTS; part++) {
            total += partSize(first, part);
        }
        return total;
    }

    /** The uniform part size for uploading {@code size} known bytes: at least {@code first}, at most 10,000 parts. */
    static long partSizeFor(long size, long first) {
        long needed = (size + MAX_PARTS - 1) / MAX_PARTS;
        long rounded = (needed + (1 << 20) - 1) & ~((1L << 20) - 1);
        return Math.max(first, rounded);
    }
}
