package io.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.strata.cli.bench.BenchItem;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code strata bench} on a plain directory with small sizes: the report's rows and counts, the
 * cleanup, and the refusals. Never the figures themselves: they depend on the machine. The kernel
 * caches are left alone (--no-drop-caches): the machine running the tests may be shared.
 * On a Strata mount: integration-tests' BenchCommandMountTest.
 */
class BenchCommandTest {
    private static final int MIB = 1 << 20;
    private static final String[] SMALL = {"--big-file-size", "4MiB", "--small-file-size", "4KiB",
            "--small-file-count", "5", "--no-drop-caches"};

    private static Cli.Result bench(Path dir, String... more) {
        List<String> args = new ArrayList<>(List.of("bench", dir.toString()));
        args.addAll(List.of(SMALL));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void theTableHasARowPerPhase(@TempDir Path dir) {
        Cli.Result result = bench(dir);
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        for (BenchItem item : BenchItem.values()) {
            assertTrue(result.out().contains("| " + item.label() + " "), () -> item + " missing:\n" + result);
        }
        assertTrue(result.out().contains(" MiB/s |") && result.out().contains(" s/file |")
                && result.out().contains(" files/s |") && result.out().contains(" ms/file |"), result::toString);
        assertEquals("", result.err());
    }

    @Test
    void theHeaderNamesTheFileSystem(@TempDir Path dir) throws IOException {
        Cli.Result result = bench(dir);
        assertTrue(result.out().startsWith("strata bench: 1 thread in " + dir.toRealPath() + ", on "), result::toString);
        assertTrue(result.out().contains("each thread: 1 big file of 4.0 MiB, 5 small files of 4.0 KiB"),
                result::toString);
    }

    @Test
    void jsonHasEveryRowWithTheFilesAndBytesOfEveryThread(@TempDir Path dir) throws IOException {
        Cli.Result result = bench(dir, "--json", "-p", "2");
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        JsonNode report = new ObjectMapper().readTree(result.out());
        assertEquals(dir.toRealPath().toString(), report.get("path").asText());
        assertEquals(2, report.get("threads").asInt());
        assertEquals(4 * MIB, report.get("bigFileSize").asLong());
        assertEquals(5, report.get("smallFileCount").asInt());
        JsonNode rows = report.get("results");
        assertEquals(BenchItem.values().length, rows.size(), result::toString);
        assertRow(rows.get(0), "write_big_file", 2, 2L * 4 * MIB);
        assertRow(rows.get(1), "read_big_file", 2, 2L * 4 * MIB);
        assertRow(rows.get(2), "write_small_file", 10, 10L * 4096);
        assertRow(rows.get(3), "read_small_file", 10, 10L * 4096);
        assertRow(rows.get(4), "stat_file", 10, 0);
    }

    private static void assertRow(JsonNode row, String item, long files, long bytes) {
        assertEquals(item, row.get("item").asText(), row::toString);
        assertEquals(files, row.get("files").asLong(), row::toString);
        assertEquals(bytes, row.get("bytes").asLong(), row::toString);
        assertTrue(row.get("seconds").asDouble() >= 0 && row.get("rate").asDouble() > 0
                && row.get("cost").asDouble() >= 0, row::toString);
        assertTrue(List.of("good", "fair", "poor").contains(row.get("rateRating").asText()), row::toString);
        assertTrue(List.of("good", "fair", "poor").contains(row.get("costRating").asText()), row::toString);
    }

    @Test
    void jsonIsTheWholeOutput(@TempDir Path dir) throws IOException {
        Cli.Result result = bench(dir, "--json");
        assertTrue(result.out().startsWith("{") && result.out().strip().endsWith("}"), result::toString);
        new ObjectMapper().readTree(result.out()); // one document, nothing around it
    }

    @Test
    void cachesLeftAloneAreSaid(@TempDir Path dir) throws IOException {
        Cli.Result text = bench(dir);
        assertTrue(text.out().contains("kernel caches not dropped (--no-drop-caches)"), text::toString);
        JsonNode json = new ObjectMapper().readTree(bench(dir, "--json").out());
        assertFalse(json.get("cachesDropped").asBoolean());
        assertEquals("--no-drop-caches", json.get("cachesNotDroppedReason").asText());
    }

    @Test
    void nothingIsLeftBehind(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("mine"), "kept");
        assertEquals(ExitCodes.OK, bench(dir, "-p", "2").exitCode());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("mine")), left.toList());
        }
    }

    @Test
    void outputOffATerminalHasNoColours(@TempDir Path dir) {
        Cli.Result result = bench(dir);
        assertFalse(result.out().contains("\u001b["), result::toString);
    }

    @Test
    void onATerminalEachPhaseDrawsABarAndTheFiguresAreColoured(@TempDir Path dir) throws Exception {
        StringWriter out = onTerminal(dir);
        for (BenchItem item : BenchItem.values()) {
            assertTrue(out.toString().contains("\r" + item.label()), () -> item + " has no bar:\n" + out);
        }
        assertTrue(out.toString().contains("\u001b[3"), out::toString); // green, yellow or red
    }

    @Test
    void noColorTurnsTheColoursOffOnATerminal(@TempDir Path dir) throws Exception {
        StringWriter out = onTerminal(dir, "--no-color");
        assertTrue(out.toString().contains("\r" + BenchItem.WRITE_BIG_FILE.label()), out::toString);
        assertFalse(out.toString().contains("\u001b["), out::toString);
    }

    /** Runs bench as if stdout were a terminal; returns its stdout. */
    private static StringWriter onTerminal(Path dir, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("bench", dir.toString()));
        args.addAll(List.of(SMALL));
        args.addAll(List.of(more));
        StringWriter out = new StringWriter();
        CommandLine commandLine = StrataCommand.commandLine(Map.of()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(new StringWriter()));
        BenchCommand bench = (BenchCommand) commandLine.parseArgs(args.toArray(String[]::new)).subcommand()
                .commandSpec().userObject();
        bench.terminal = true;
        assertEquals(ExitCodes.OK, bench.call(), out::toString);
        return out;
    }

    @Test
    void aMissingPathIsRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("bench", dir.resolve("nope").toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: " + dir.resolve("nope") + " does not exist; give an existing directory to run in\n",
                result.err());
    }

    @Test
    void aFileIsRefused(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        Cli.Result result = Cli.run("bench", file.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: " + file + " is not a directory; give a directory to run in\n", result.err());
    }

    @Test
    void aZeroSizeIsRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("bench", dir.toString(), "--big-file-size", "0");
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: --big-file-size must be more than 0 bytes, not 0\n", result.err());
    }

    @Test
    void aZeroSmallFileCountIsRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("bench", dir.toString(), "--small-file-count", "0");
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: --small-file-count must be at least 1, not 0\n", result.err());
    }

    @Test
    void zeroThreadsAreRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("bench", dir.toString(), "-p", "0");
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: --threads must be at least 1, not 0\n", result.err());
    }

    @Test
    void aSizeThatIsNotASizeIsRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("bench", dir.toString(), "--block-size", "big");
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: --block-size 'big' is not a size; expected a size such as 4096, 512KB, 1MiB or 5GB\n",
                result.err());
    }

    @Test
    void refusalsLeaveNothingBehind(@TempDir Path dir) throws IOException {
        Cli.run("bench", dir.toString(), "--small-file-size", "0");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }
}
