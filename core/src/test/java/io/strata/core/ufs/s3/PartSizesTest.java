package io.strata.core.ufs.s3;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartSizesTest {
    private static final long MIB = 1L << 20;
    private static final long TIB = 1L << 40;

    @ParameterizedTest
    @ValueSource(longs = {5 * MIB, 8 * MIB, 16 * MIB, 100 * MIB, 1024 * MIB, 5 * 1024 * MIB})
    void tenThousandPartsHoldFiveTebibytesFromEveryAllowedFirstSize(long first) {
        long total = 0;
        long previous = 0;
        for (int part = 1; part <= PartSizes.MAX_PARTS; part++) {
            long size = PartSizes.partSize(first, part);
            assertTrue(size >= S3Options.MIN_PART_SIZE && size <= S3Options.MAX_PART_SIZE,
                    "part " + part + ": " + size);
            assertTrue(size >= previous, "part " + part + " is smaller than the one before");
            previous = size;
            total += size;
        }
        assertEquals(first, PartSizes.partSize(first, 1));
        assertTrue(total >= 5 * TIB, "10,000 parts from " + first + " hold only " + total);
        assertEquals(total, PartSizes.capacity(first));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 500})
    void theFirstFiveHundredPartsKeepTheConfiguredSize(int part) {
        assertEquals(8 * MIB, PartSizes.partSize(8 * MIB, part));
    }

    @ParameterizedTest
    @ValueSource(ints = {501, 1000})
    void theSizeDoublesEveryFiveHundredParts(int part) {
        assertEquals(16 * MIB, PartSizes.partSize(8 * MIB, part));
        assertEquals(32 * MIB, PartSizes.partSize(8 * MIB, part + 500));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 100 * MIB, 5 * 1024 * MIB, 77L * 1024 * MIB, 5 * TIB})
    void aKnownSizeIsSplitIntoAtMostTenThousandPartsWithinLimits(long size) {
        long partSize = PartSizes.partSizeFor(size, 8 * MIB);
        assertTrue(partSize >= 8 * MIB && partSize <= S3Options.MAX_PART_SIZE, "part size " + partSize);
        assertTrue((size + partSize - 1) / partSize <= PartSizes.MAX_PARTS, "too many parts of " + partSize);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10_001})
    void partNumbersOutsideS3sRangeAreRefused(int part) {
        assertThrows(IllegalArgumentException.class, () -> PartSizes.partSize(8 * MIB, part));
    }
}
