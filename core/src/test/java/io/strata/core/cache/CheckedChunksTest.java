package io.strata.core.cache;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckedChunksTest {
    @Test
    void nothingIsCheckedAtFirst() {
        CheckedChunks chunks = new CheckedChunks(256);
        assertEquals(0, chunks.firstUnchecked(0, 255));
        assertEquals(255, chunks.lastUnchecked(0, 255), "one run of unchecked chunks to the end");
    }

    @Test
    void markedChunksAcrossAWordBoundaryAreSkippedAndRunsEndBeforeThem() {
        CheckedChunks chunks = new CheckedChunks(256);
        chunks.mark(60, 70);
        assertTrue(chunks.checked(60));
        assertTrue(chunks.checked(64));
        assertTrue(chunks.checked(70));
        assertFalse(chunks.checked(59));
        assertFalse(chunks.checked(71));
        assertEquals(59, chunks.lastUnchecked(0, 255));
        assertEquals(71, chunks.firstUnchecked(60, 255));
        assertEquals(71, chunks.firstUnchecked(60, 70), "all of 60..70 checked: one past the last");
    }

    @Test
    void aChunkPastTheCountIsNeverChecked() {
        CheckedChunks chunks = new CheckedChunks(3);
        chunks.mark(0, 2);
        assertFalse(chunks.checked(3));
    }
}
