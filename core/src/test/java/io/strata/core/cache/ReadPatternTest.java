package io.strata.core.cache;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadPatternTest {
    static final long PAGE = 1 << 20;
    static final long CHUNK = 128 << 10;

    @Test
    void aStreamFromTheStartIsNotRandom() {
        ReadPattern pattern = new ReadPattern(PAGE);
        for (long offset = 0; offset < 10 * CHUNK; offset += CHUNK) {
            assertFalse(pattern.randomRead(offset, offset + CHUNK), "at " + offset);
        }
    }

    @Test
    void interleavedStreamsEachContinueTheirOwn() {
        ReadPattern pattern = new ReadPattern(PAGE);
        long[] positions = {0, 100 * PAGE, 200 * PAGE};
        assertFalse(pattern.randomRead(positions[0], positions[0] + CHUNK));
        assertTrue(pattern.randomRead(positions[1], positions[1] + CHUNK), "a stream's first read is a jump");
        assertTrue(pattern.randomRead(positions[2], positions[2] + CHUNK));
        for (int round = 1; round < 20; round++) {
            for (long start : positions) {
                long offset = start + round * CHUNK;
                assertFalse(pattern.randomRead(offset, offset + CHUNK), "stream at " + offset);
            }
        }
    }

    @Test
    void requestsALittleOutOfOrderStillContinueTheStream() {
        ReadPattern pattern = new ReadPattern(PAGE);
        assertFalse(pattern.randomRead(0, CHUNK));
        assertFalse(pattern.randomRead(2 * CHUNK, 3 * CHUNK));
        assertFalse(pattern.randomRead(CHUNK, 2 * CHUNK));
    }

    @Test
    void jumpsFarFromEveryRecentEndAreRandom() {
        ReadPattern pattern = new ReadPattern(PAGE);
        pattern.randomRead(0, 4096);
        assertTrue(pattern.randomRead(500 * PAGE, 500 * PAGE + 4096));
        assertTrue(pattern.randomRead(37 * PAGE, 37 * PAGE + 4096));
    }
}
