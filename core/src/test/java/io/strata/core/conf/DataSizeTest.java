package io.strata.core.conf;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataSizeTest {
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @Test
    void unitsAreBinaryWhateverTheirSpelling() {
        assertEquals(512 * MIB, DataSize.parse("512MB").bytes());
        assertEquals(512 * MIB, DataSize.parse("512MiB").bytes());
        assertEquals(512 * MIB, DataSize.parse("512m").bytes());
        assertEquals(5 * GIB, DataSize.parse("5GB").bytes());
        assertEquals(MIB, DataSize.parse("1MiB").bytes());
        assertEquals(64 * KIB, DataSize.parse("64k").bytes());
        assertEquals(2L << 40, DataSize.parse("2TB").bytes());
        assertEquals(1L << 50, DataSize.parse("1PiB").bytes());
    }

    @Test
    void plainNumberIsBytes() {
        assertEquals(4096, DataSize.parse("4096").bytes());
        assertEquals(4096, DataSize.parse("4096B").bytes());
        assertEquals(0, DataSize.parse("0").bytes());
    }

    @Test
    void fractionsCaseAndSpacesAreAccepted() {
        assertEquals(GIB + GIB / 2, DataSize.parse("1.5GiB").bytes());
        assertEquals(GIB + GIB / 2, DataSize.parse("1.5gib").bytes());
        assertEquals(10 * KIB, DataSize.parse(" 10 KB ").bytes());
    }

    @Test
    void badFormsAreRejectedNamingTheForm() {
        for (String bad : List.of("12XB", "-1", "", "  ", "MB", "1.5.2", "1e3", "ten", "4096i", "4096iB", "5 G B",
                "0x10")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DataSize.parse(bad),
                    "'" + bad + "'");
            assertTrue(e.getMessage().contains("such as 4096, 512KB, 1MiB or 5GB"), e.getMessage());
        }
    }

    @Test
    void sizesBeyondALongAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> DataSize.parse("9000PB"));
    }

    @Test
    void negativeSizesCannotBeBuilt() {
        assertThrows(IllegalArgumentException.class, () -> DataSize.ofBytes(-1));
    }

    @Test
    void printsTheShortestExactFormWhichParsesBack() {
        assertEquals("1MiB", DataSize.ofMiB(1).toString());
        assertEquals("300MiB", DataSize.ofMiB(300).toString());
        assertEquals("4097B", DataSize.ofBytes(4097).toString());
        assertEquals("0B", DataSize.ofBytes(0).toString());
        assertEquals("1536MiB", DataSize.parse("1.5GiB").toString());
        for (long bytes : new long[] {0, 1, 4096, 4097, 3 * MIB, 5 * GIB, 1L << 50, 3L << 50}) {
            assertEquals(bytes, DataSize.parse(DataSize.ofBytes(bytes).toString()).bytes());
        }
    }

    @Test
    void ordersByBytes() {
        assertTrue(DataSize.ofKiB(1024).compareTo(DataSize.ofMiB(1)) == 0);
        assertTrue(DataSize.ofMiB(1).compareTo(DataSize.ofGiB(1)) < 0);
    }
}
