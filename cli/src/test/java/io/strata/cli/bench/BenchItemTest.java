package io.strata.cli.bench;

import org.junit.jupiter.api.Test;

import static io.strata.cli.bench.BenchItem.Rating.FAIR;
import static io.strata.cli.bench.BenchItem.Rating.GOOD;
import static io.strata.cli.bench.BenchItem.Rating.POOR;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The thresholds {@code strata bench} rates its figures against (JuiceFS's, see {@link BenchItem}). */
class BenchItemTest {
    private static final long GIB = 1L << 30;

    @Test
    void bigFileRatesAreRatedAsTotals() {
        assertEquals(GOOD, BenchItem.WRITE_BIG_FILE.rateRating(250, 4));
        assertEquals(FAIR, BenchItem.WRITE_BIG_FILE.rateRating(150, 4));
        assertEquals(POOR, BenchItem.READ_BIG_FILE.rateRating(90, 1));
    }

    @Test
    void smallFileRatesAreRatedPerThread() {
        assertEquals(GOOD, BenchItem.WRITE_SMALL_FILE.rateRating(30, 1));
        assertEquals(FAIR, BenchItem.WRITE_SMALL_FILE.rateRating(30, 2)); // good above 2 x 20
        assertEquals(POOR, BenchItem.STAT_FILE.rateRating(30, 2)); // fair above 2 x 20
    }

    @Test
    void bigFileCostsScaleWithTheFileSize() {
        assertEquals(GOOD, BenchItem.WRITE_BIG_FILE.costRating(9, GIB));
        assertEquals(FAIR, BenchItem.WRITE_BIG_FILE.costRating(9, GIB / 4)); // good below 10 s / 4
        assertEquals(POOR, BenchItem.READ_BIG_FILE.costRating(13, GIB / 4)); // fair below 50 s / 4
    }

    @Test
    void smallFileCostsAreMillisecondsPerFile() {
        assertEquals(GOOD, BenchItem.READ_SMALL_FILE.costRating(5, 4096));
        assertEquals(FAIR, BenchItem.READ_SMALL_FILE.costRating(15, 4096));
        assertEquals(POOR, BenchItem.STAT_FILE.costRating(5, 4096));
    }

    @Test
    void aResultCountsCostPerFileAsOneThreadSeesIt() {
        // 2 threads, 10 files each, in 1 s: 20 files/s, and each thread spent 100 ms per file
        BenchResult result = new BenchResult(BenchItem.WRITE_SMALL_FILE, 2, 20, 4096, 20 * 4096, 1_000_000_000L);
        assertEquals(20.0, result.rate(), 1e-9);
        assertEquals(100.0, result.cost(), 1e-9);
    }
}
