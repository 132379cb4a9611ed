package io.strata.core.readahead;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stream's window on its own: start, doubling, cap, shrink, and which reads belong to it. */
class ReadaheadSessionTest {
    private static final int MIB = 1 << 20;
    private static final ReadaheadConfig CONFIG = ReadaheadConfig.of(8L * MIB, true, 300L * MIB);

    @Test
    void theWindowStartsAtTheSecondReadAndDoublesEveryHalfWindowRead() {
        ReadaheadSession session = new ReadaheadSession(MIB, 1);
        assertFalse(session.sequential());
        session.advance(MIB, 2 * MIB, 2, CONFIG.maxReadahead(), CONFIG);
        assertEquals(MIB, session.window());
        long offset = 2 * MIB;
        long[] expected = {2 * MIB, 4 * MIB, 4 * MIB, 8 * MIB, 8 * MIB, 8 * MIB, 8 * MIB, 8 * MIB};
        for (long window : expected) {
            session.advance(offset, offset + MIB, 3, CONFIG.maxReadahead(), CONFIG);
            offset += MIB;
            assertEquals(window, session.window(), "after reading to " + offset);
        }
    }

    @Test
    void shrinkingHalvesDownToTheFirstWindow() {
        ReadaheadSession session = new ReadaheadSession(0, 1);
        session.advance(0, MIB, 1, CONFIG.maxReadahead(), CONFIG);
        for (long offset = MIB; session.window() < 8 * MIB; offset += MIB) {
            session.advance(offset, offset + MIB, 1, CONFIG.maxReadahead(), CONFIG);
        }
        session.shrink(CONFIG);
        assertEquals(4 * MIB, session.window());
        session.shrink(CONFIG);
        session.shrink(CONFIG);
        session.shrink(CONFIG);
        assertEquals(MIB, session.window());
    }

    @Test
    void aWindowAboveItsShareComesDownToItAtTheNextRead() {
        ReadaheadSession session = new ReadaheadSession(0, 1);
        session.advance(0, MIB, 1, CONFIG.maxReadahead(), CONFIG);
        long offset = MIB;
        for (; session.window() < 8 * MIB; offset += MIB) {
            session.advance(offset, offset + MIB, 1, CONFIG.maxReadahead(), CONFIG);
        }
        session.advance(offset, offset + MIB, 1, 2 * MIB, CONFIG);
        assertEquals(2 * MIB, session.window(), "another stream started reading");
        for (int i = 0; i < 8; i++) {
            offset += MIB;
            session.advance(offset, offset + MIB, 1, 2 * MIB, CONFIG);
        }
        assertEquals(2 * MIB, session.window(), "and it stays at its share");
    }

    @Test
    void noReadaheadMeansNoWindow() {
        ReadaheadSession session = new ReadaheadSession(0, 1);
        for (long offset = 0; offset < 10 * MIB; offset += MIB) {
            session.advance(offset, offset + MIB, 1, 0, ReadaheadConfig.of(0, true, MIB));
        }
        assertEquals(0, session.window());
    }

    @Test
    void aStreamContinuesExactlyUntilSequentialThenAroundItsWindow() {
        ReadaheadSession session = new ReadaheadSession(4 * MIB, 1);
        assertTrue(session.continues(4 * MIB, MIB));
        assertFalse(session.continues(4 * MIB + 1, MIB), "one read is no stream yet");
        assertFalse(session.continues(4 * MIB - 1, MIB));
        session.advance(4 * MIB, 5 * MIB, 2, CONFIG.maxReadahead(), CONFIG);
        assertTrue(session.continues(5 * MIB - MIB, MIB), "a part behind: reordered reads");
        assertTrue(session.continues(5 * MIB + MIB, MIB), "within the window ahead");
        assertFalse(session.continues(5 * MIB + MIB + 1, MIB), "past the window");
        assertFalse(session.continues(4 * MIB - 1, MIB), "more than a part behind");
    }
}
