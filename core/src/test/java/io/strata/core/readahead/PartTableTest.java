package io.strata.core.readahead;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The part queue's range arithmetic: gaps, covered ends, overlaps. */
class PartTableTest {
    private final BufferBudget budget = new BufferBudget(1 << 30);
    private long sequence;

    private Part part(long start, long end) {
        return new Part(start, end, null, false, ++sequence, budget);
    }

    @Test
    void gapsAreWhatNoPartCovers() {
        PartTable table = new PartTable();
        table.add(part(10, 20));
        table.add(part(20, 30));
        table.add(part(50, 60));
        assertEquals(List.of(new PartTable.Gap(0, 10), new PartTable.Gap(30, 50), new PartTable.Gap(60, 70)),
                table.gaps(0, 70));
        assertEquals(List.of(), table.gaps(12, 28));
        assertEquals(List.of(new PartTable.Gap(30, 40)), table.gaps(15, 40));
        assertEquals(30, table.coveredEnd(10));
        assertEquals(30, table.coveredEnd(15));
        assertEquals(40, table.coveredEnd(40));
        assertEquals(60, table.coveredEnd(59));
        assertEquals(2, table.overlapping(19, 21).size());
        assertEquals(List.of(), table.overlapping(30, 50));
        assertEquals(2, table.endingBy(30).size());
    }

    @Test
    void partsNeverOverlap() {
        PartTable table = new PartTable();
        table.add(part(10, 20));
        assertThrows(IllegalStateException.class, () -> table.add(part(15, 25)));
        assertThrows(IllegalStateException.class, () -> table.add(part(5, 11)));
        table.add(part(20, 25));
        assertEquals(2, table.size());
    }
}
