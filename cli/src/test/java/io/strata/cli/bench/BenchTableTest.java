package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.Help.Ansi;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How {@code strata bench} prints its table: aligned, and coloured by rating when colours are on. */
class BenchTableTest {
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String RED = "\u001b[31m";
    private static final long SECOND = 1_000_000_000L;

    /** 1 thread: a 1 GiB file written at 1024 MiB/s (good), read at 150 MiB/s (fair); small files at 10/s (poor). */
    private static BenchReport report() {
        long gib = 1L << 30;
        return new BenchReport(new BenchTarget(Path.of("/data"), Optional.empty()),
                new BenchSpec(1 << 20, gib, 4096, 10, 1),
                List.of(new BenchResult(BenchItem.WRITE_BIG_FILE, 1, 1, gib, gib, SECOND),
                        new BenchResult(BenchItem.READ_BIG_FILE, 1, 1, gib, gib, (long) (SECOND * 1024 / 150.0)),
                        new BenchResult(BenchItem.WRITE_SMALL_FILE, 1, 10, 4096, 10 * 4096, SECOND)),
                Optional.empty(), 3 * SECOND);
    }

    private static String print(Ansi ansi) {
        StringWriter out = new StringWriter();
        BenchTable.printResults(report(), ansi, new PrintWriter(out, true));
        return out.toString();
    }

    @Test
    void figuresAreColouredByTheirRating() {
        String table = print(Ansi.ON);
        assertTrue(table.contains(GREEN + "1024.0 MiB/s"), table);
        assertTrue(table.contains(GREEN + "1.0 s/file"), table);
        assertTrue(table.contains(YELLOW + "150.0 MiB/s"), table);
        assertTrue(table.contains(RED + "10.0 files/s"), table);
        assertTrue(table.contains(RED + "100.0 ms/file"), table);
    }

    @Test
    void withoutColoursTheTableIsPlainAndAligned() {
        String table = print(Ansi.OFF);
        assertFalse(table.contains("\u001b["), table);
        List<String> lines = table.lines().toList();
        assertEquals("+------------------+--------------+---------------+", lines.get(0));
        assertEquals("| ITEM             |        VALUE |          COST |", lines.get(1));
        assertEquals("| Write big file   | 1024.0 MiB/s |    1.0 s/file |", lines.get(3));
        assertEquals("| Read big file    |  150.0 MiB/s |    6.8 s/file |", lines.get(4));
        assertEquals("| Write small file | 10.0 files/s | 100.0 ms/file |", lines.get(5));
        assertEquals("kernel caches dropped before each read and stat", lines.get(7));
    }

    @Test
    void colouredCellsKeepThePlainWidths() {
        List<String> plain = print(Ansi.OFF).lines().toList();
        List<String> coloured = print(Ansi.ON).lines().toList();
        for (int i = 0; i < 7; i++) {
            assertEquals(plain.get(i), coloured.get(i).replaceAll("\u001b\\[[0-9;]*m", ""));
        }
    }
}
