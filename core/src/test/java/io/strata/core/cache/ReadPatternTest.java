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

    /**
     * The kernel's readahead sends a stream as requests of max_read (1020 KiB where a worker's
     * pipe holds 1 MiB), several in flight, and the FUSE workers take them in any order: a request
     * can be taken after ones several requests further on, or before them.
     */
    @Test
    void aStreamsLargeRequestsTakenOutOfOrderStayInTheStream() {
        ReadPattern pattern = new ReadPattern(PAGE);
        long request = PAGE - 4096;
        int[] order = {0, 1, 4, 2, 3, 7, 5, 6, 8, 12, 9, 10, 11, 13, 15, 14};
        for (int i : order) {
            long offset = i * request;
            assertFalse(pattern.randomRead(offset, offset + request), "request " + i);
        }
    }

    @Test
    void aJumpNearAReadThatStartedNoStreamIsStillRandom() {
        ReadPattern pattern = new ReadPattern(PAGE);
        pattern.randomRead(0, 4096);
        assertTrue(pattern.randomRead(300 * PAGE, 300 * PAGE + 4096));
        assertTrue(pattern.randomRead(303 * PAGE, 303 * PAGE + 4096), "three pages past a single random read");
        assertTrue(pattern.randomRead(297 * PAGE, 297 * PAGE + 4096), "three pages before it");
    }

    @Test
    void aStreamsStragglerLeavesTheStreamWhereItWas() {
        ReadPattern pattern = new ReadPattern(PAGE);
        for (long offset = 0; offset < 8 * PAGE; offset += PAGE) {
            pattern.randomRead(offset, offset + PAGE);
        }
        assertFalse(pattern.randomRead(3 * PAGE, 3 * PAGE + 4096), "a straggler");
        assertFalse(pattern.randomRead(8 * PAGE, 9 * PAGE), "the stream goes on from its end, not the straggler's");
    }

    @Test
    void jumpsFarFromEveryRecentEndAreRandom() {
        ReadPattern pattern = new ReadPattern(PAGE);
        pattern.randomRead(0, 4096);
        assertTrue(pattern.randomRead(500 * PAGE, 500 * PAGE + 4096));
        assertTrue(pattern.randomRead(37 * PAGE, 37 * PAGE + 4096));
    }
}
