package io.strata.it;

import io.strata.cli.StrataCommand;
import io.strata.cli.stats.StatsSample;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a mount shows about itself (issue 13): the Prometheus endpoint, {@code .stats} and
 * {@code .accesslog} in the root, and the {@code strata stats} and {@code strata profile} commands
 * reading them, all through a real mount, on either transport (whose operation names differ: the
 * kernel protocol's for fuse=kernel, libfuse's callbacks for fuse=jnr).
 */
class ObservabilityTest {
    @TempDir
    static Path base;
    static MountedVolume volume;
    static int metricsPort;

    @BeforeAll
    static void mount() throws IOException {
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            metricsPort = free.getLocalPort();
        }
        volume = MountedVolume.under(base, "metrics_port=" + metricsPort).mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (volume != null) {
            volume.close();
        }
    }

    /** The series of a Prometheus text body (or .stats) and their values, read as strata stats reads them. */
    private static Map<String, Double> series(String text) {
        return StatsSample.parse(text, 0).values();
    }

    private static String scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    @Test
    void theMetricsEndpointCountsTheReadsOfAMount() throws Exception {
        byte[] data = Bytes.random(13, 3 << 20);
        Path file = volume.path("scraped.bin");
        Files.write(file, data);
        double before = series(scrape()).getOrDefault("strata_fuse_bytes_total{direction=\"read\"}", 0.0);
        Shell.sh(volume.path(""), "dd if=scraped.bin of=/dev/null bs=1M iflag=direct").assertOk();
        Map<String, Double> after = series(scrape());
        assertTrue(after.get("strata_fuse_bytes_total{direction=\"read\"}") - before >= data.length, after.toString());
        assertTrue(after.get("strata_fuse_ops_seconds_count{op=\"read\"}") >= 3);
        assertTrue(after.keySet().stream().anyMatch(s -> s.startsWith("strata_fuse_ops_seconds_bucket{le=")
                || s.startsWith("strata_fuse_ops_seconds_bucket{")), "a latency histogram");
        assertTrue(after.get("strata_meta_ops_seconds_count{op=\"create\"}") >= 1);
        assertTrue(after.get("strata_ufs_bytes_total{direction=\"written\"}") >= data.length);
        assertTrue(after.containsKey("jvm_memory_used_bytes{area=\"heap\",id=\"Tenured Gen\"}")
                || after.keySet().stream().anyMatch(s -> s.startsWith("jvm_memory_used_bytes{")));
        assertTrue(after.get("strata_process_resident_memory_bytes") > 0);
    }

    @Test
    void errorsAreCountedByErrno() throws Exception {
        assertFalse(Files.exists(volume.path("no-such-file")));
        String op = Transport.current() == Transport.KERNEL ? "lookup" : "getattr";
        assertTrue(series(scrape()).get("strata_fuse_errors_total{errno=\"ENOENT\",op=\"" + op + "\"}") >= 1);
    }

    @Test
    void aFreshMountsMetersCountTheKernelsRequestsNotItsRehearsal(@TempDir Path own) throws IOException {
        assumeTrue(Transport.current() == Transport.KERNEL, "fuse=kernel rehearses before INIT; fuse=jnr does not");
        try (MountedVolume fresh = MountedVolume.under(own, "fuse_rehearsal=50").mount()) {
            Map<String, Double> stats = series(Files.readString(fresh.path(".stats")));
            assertTrue(stats.get("strata_meta_ops_seconds_count{op=\"lookup\"}") >= 50,
                    "the rehearsal's 50 misses reached the metastore: " + stats);
            assertEquals(0.0, stats.getOrDefault("strata_fuse_errors_total{errno=\"ENOENT\",op=\"lookup\"}", 0.0),
                    stats.toString());
            assertTrue(stats.getOrDefault("strata_fuse_ops_seconds_count{op=\"lookup\"}", 0.0) < 50, stats.toString());
            assertEquals(0.0, stats.getOrDefault("strata_fuse_ops_seconds_count{op=\"opendir\"}", 0.0),
                    stats.toString());
        }
    }

    @Test
    void aReadOnlyMountOfAVolumeNoReadWriteMountOpenedHasNothingToRehearseAndMounts(@TempDir Path own)
            throws IOException {
        try (MountedVolume readOnly = MountedVolume.under(own, "ro").mount()) {
            Map<String, Double> stats = series(Files.readString(readOnly.path(".stats")));
            assertTrue(stats.getOrDefault("strata_meta_ops_seconds_count{op=\"lookup\"}", 0.0) < 50,
                    "no reserved directory, so no rehearsal: " + stats);
        }
    }

    @Test
    void statsIsReadableInTheRootAndNeverListed() throws IOException {
        Files.writeString(volume.path("listed.txt"), "x");
        Map<String, Double> stats = series(Files.readString(volume.path(".stats")));
        assertTrue(stats.get("strata_fuse_ops_seconds_count{op=\"create\"}") >= 1, stats.toString());
        assertFalse(stats.keySet().stream().anyMatch(s -> s.contains("_bucket{")), "no histogram buckets");
        assertFalse(MountedVolume.names(volume.path("")).contains(".stats"));
        assertFalse(MountedVolume.names(volume.path("")).contains(".accesslog"));
    }

    @Test
    void statsIsReadableByAllAndTheAccessLogOnlyByItsOwner() throws IOException {
        assertEquals("r--r--r--", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(volume.path(".stats"))));
        assertEquals("r--------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(volume.path(".accesslog"))));
    }

    @Test
    void theControlFilesAreReadOnly() {
        assertEquals("EACCES", Shell.errnoOf("open(a, 'w')", volume.path(".stats")));
        assertEquals("EPERM", Shell.errnoOf("os.chmod(a, 0o666)", volume.path(".stats")));
    }

    @Test
    void theAccessLogStreamsTheOperationsDoneWhileItIsRead() throws Exception {
        String arguments = Transport.current() == Transport.KERNEL ? "1,\"logged\\.txt\"" : "\"/logged\\.txt\"";
        Predicate<String> created = l -> l.matches(
                "^\\S+ \\S+ \\[uid:0,gid:0,pid:\\d+] create \\(" + arguments + "\\): OK <[0-9.]+>$");
        Predicate<String> readBack = l -> l.contains("] read (") && l.contains("): OK 5 <");
        // Lines are written as replies go out, which is not always the order the requests came in:
        // read until both are there, or 10 s.
        CompletableFuture<List<String>> lines = CompletableFuture.supplyAsync(() -> readAccessLog(
                List.of(created, readBack), 10_000));
        awaitAccessLogReader();
        Files.writeString(volume.path("logged.txt"), "hello");
        Files.readString(volume.path("logged.txt"));
        List<String> read = lines.get(30, TimeUnit.SECONDS);
        assertTrue(read.stream().anyMatch(created), read.toString());
        assertTrue(read.stream().anyMatch(readBack), read.toString());
    }

    @Test
    void profileSumsTheLiveAccessLogByOperation() throws Exception {
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> strata("profile",
                volume.path("").toString(), "--duration", "3", "--interval", "10"));
        awaitAccessLogReader();
        for (int i = 0; i < 5; i++) {
            Files.writeString(volume.path("profiled-" + i), "x");
        }
        String table = out.get(20, TimeUnit.SECONDS);
        assertTrue(table.lines().anyMatch(l -> l.matches("^create\\s+5\\s+0\\s+.*")), table);
    }

    @Test
    void statsShowsARowOfRatesPerInterval() {
        String out = strata("stats", volume.path("").toString(), "--interval", "0.3", "--count", "2");
        List<String> lines = out.lines().toList();
        assertEquals(4, lines.size(), out);
        assertTrue(lines.get(0).startsWith("-usage"), out);
        assertTrue(lines.get(1).contains("ops") && lines.get(1).contains("hit%"), out);
        assertTrue(lines.get(2).matches("^\\s+[0-9.]+%\\s+[0-9.]+[KMG]?\\s.*"), out);
    }

    /** Until a reader has the access log open (its own reads are not logged, so .stats can tell). */
    private static void awaitAccessLogReader() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (series(Files.readString(volume.path(".stats"))).getOrDefault("strata_fuse_accesslog_readers", 0.0) < 1) {
            assertTrue(System.nanoTime() < deadline, "no reader attached to .accesslog within 20 s");
            Thread.sleep(20);
        }
    }

    /** The access log's lines until each of {@code wanted} matched one, or {@code millis} passed. */
    private static List<String> readAccessLog(List<Predicate<String>> wanted, long millis) {
        List<String> lines = new ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000;
        try (BufferedReader reader = Files.newBufferedReader(volume.path(".accesslog"), StandardCharsets.UTF_8)) {
            String line;
            while (System.nanoTime() < end && (line = reader.readLine()) != null) {
                lines.add(line);
                if (wanted.stream().allMatch(w -> lines.stream().anyMatch(w))) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return lines;
    }

    private static String strata(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = StrataCommand.commandLine(Map.of()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(args);
        assertEquals(0, code, err.toString());
        return out.toString();
    }
}
