package io.strata.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.core.ufs.s3.S3TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code strata objbench} against a real S3 server ({@link S3TestServer}: S3Proxy in this JVM, or
 * the endpoint of STRATA_TEST_S3_ENDPOINT). Sizes are small so the runs are quick; no test asserts
 * a speed, only that each figure is reported.
 */
class ObjbenchCommandTest {
    private static final List<String> CHECKS = List.of("put", "get", "range get", "head", "get missing key",
            "overwrite", "empty object", "delete", "delete missing key", "list", "list paging",
            "list with delimiter", "multipart upload", "large object");
    private static final List<String> ITEMS = List.of("put big object", "get big object", "put small objects",
            "get small objects", "head small objects", "delete small objects");
    private static final String[] SMALL_THROUGHPUT = {"-p", "2", "--big-object-size", "1MiB", "--block-size",
            "256KiB", "--small-objects", "6", "--small-object-size", "4KiB"};

    private final S3TestServer server = S3TestServer.shared();
    private URI volume;

    @BeforeEach
    void newVolume(TestInfo test) {
        volume = server.newVolume("objbench-" + test.getTestMethod().orElseThrow().getName());
    }

    /** {@code strata objbench TARGET -o <the server's options> EXTRA...}. */
    private Cli.Result objbench(String target, String... extra) {
        List<String> args = new ArrayList<>(List.of("objbench", target, "-o", dashO(server.optionText())));
        args.addAll(Arrays.asList(extra));
        return Cli.run(args.toArray(String[]::new));
    }

    private static String dashO(Map<String, String> options) {
        return options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    private static void assertOneErrorLine(Cli.Result result, int exitCode, String fragment) {
        assertEquals(exitCode, result.exitCode(), result::toString);
        assertTrue(result.err().startsWith("strata: "), result::toString);
        assertEquals(1, result.err().lines().count(), () -> "one line expected: " + result);
        assertTrue(result.err().contains(fragment), () -> "missing '" + fragment + "' in " + result);
    }

    @Test
    void everyFunctionalCheckPassesAgainstS3() {
        Cli.Result result = objbench(volume + "/data", "--skip-throughput");

        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        for (String check : CHECKS) {
            assertTrue(result.out().lines().anyMatch(line -> line.matches("\\s+" + check + "\\s+pass")),
                    () -> "no 'pass' line for " + check + ":\n" + result);
        }
        assertTrue(result.out().contains("checks: " + CHECKS.size() + " pass, 0 failed, 0 not supported"),
                result::toString);
        assertEquals("", result.err(), result::toString);
    }

    @Test
    void theRunRemovesWhatItWroteAndNothingElse() {
        server.put(volume, "data/keep", new byte[] {1, 2, 3});

        Cli.Result result = objbench(volume + "/data", SMALL_THROUGHPUT);

        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertEquals(List.of("data/keep"), server.keys(volume));
    }

    @Test
    void theThroughputPhasePrintsARowPerItem() {
        Cli.Result result = objbench(volume.toString(), concat(SMALL_THROUGHPUT, "--skip-functional"));

        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertTrue(result.out().lines().anyMatch(line -> line.matches("\\s+ITEM\\s+VALUE\\s+COST")), result::toString);
        for (String item : ITEMS) {
            String unit = item.contains("big") ? "MiB/s\\s+[0-9.]+ ms/block" : "objects/s\\s+[0-9.]+ ms/object";
            assertTrue(result.out().lines().anyMatch(line -> line.matches("\\s+" + item + "\\s+[0-9.]+ " + unit)),
                    () -> "no row for " + item + ":\n" + result);
        }
        assertFalse(result.out().contains("functional checks"), result::toString);
    }

    @Test
    void jsonIsOneDocumentWithEveryCheckAndRow() throws Exception {
        Cli.Result result = objbench(volume.toString(), concat(SMALL_THROUGHPUT, "--json"));

        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        JsonNode report = new ObjectMapper().readTree(result.out());
        assertEquals(volume.toString(), report.get("target").asText());
        Map<String, String> checks = new LinkedHashMap<>();
        report.get("functional").forEach(c -> checks.put(c.get("check").asText(), c.get("result").asText()));
        assertEquals(CHECKS, List.copyOf(checks.keySet()));
        assertTrue(checks.values().stream().allMatch("pass"::equals), checks::toString);
        JsonNode throughput = report.get("throughput");
        assertEquals(2, throughput.get("threads").asInt());
        List<String> items = new ArrayList<>();
        for (JsonNode row : throughput.get("rows")) {
            items.add(row.get("item").asText());
            assertTrue(row.get("operations").asInt() > 0, row::toString);
            assertTrue(row.get("seconds").asDouble() > 0, row::toString);
            assertTrue(row.get("averageLatencyMs").asDouble() > 0, row::toString);
        }
        assertEquals(ITEMS, items);
        assertEquals(4, throughput.get("rows").get(0).get("operations").asInt(), "1MiB in 256KiB blocks");
        assertEquals(1 << 20, throughput.get("rows").get(1).get("bytes").asLong());
        assertFalse(report.has("error"), report::toString);
    }

    @Test
    void failedChecksAreReportedWithTheirReasonAndFailTheCommand() {
        // S3Proxy 2.6 rejects the checksum headers that s3.checksum=when_supported sends.
        assumeTrue(server.isLocalProxy(), "needs S3Proxy's refusal of checksum headers");

        Cli.Result result = objbench(volume.toString(), "--skip-throughput", "-o", "s3.checksum=when_supported");

        assertEquals(ExitCodes.FAILURE, result.exitCode(), result::toString);
        assertTrue(result.out().lines().anyMatch(line -> line.matches("\\s+put\\s+failed: PUT \\S+/functional/put: .*")),
                result::toString);
        assertOneErrorLine(result, ExitCodes.FAILURE, "functional checks failed (see the report)");
        assertEquals(List.of(), server.keys(volume), "the run cleans up after failed checks too");
    }

    @Test
    void jsonSaysWhyTheThroughputPhaseStopped() throws Exception {
        assumeTrue(server.isLocalProxy(), "needs S3Proxy's refusal of checksum headers");

        Cli.Result result = objbench(volume.toString(),
                concat(SMALL_THROUGHPUT, "--skip-functional", "--json", "-o", "s3.checksum=when_supported"));

        assertEquals(ExitCodes.FAILURE, result.exitCode(), result::toString);
        JsonNode report = new ObjectMapper().readTree(result.out());
        assertTrue(report.get("error").asText().startsWith("throughput phase stopped: put big object: PUT "),
                report::toString);
        assertEquals(0, report.get("throughput").get("rows").size(), report::toString);
        assertOneErrorLine(result, ExitCodes.FAILURE, "throughput phase stopped: put big object: PUT ");
    }

    @Test
    void optionsAlsoComeFromStrataEnvironmentVariables() {
        Map<String, String> env = new LinkedHashMap<>();
        server.optionText().forEach((key, value) ->
                env.put("STRATA_" + key.toUpperCase(Locale.ROOT).replace('.', '_'), value));

        Cli.Result result = Cli.run(env, "objbench", volume.toString(), "--skip-throughput");

        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
    }

    @Test
    void credentialsAreNeverPrinted() {
        Cli.Result result = objbench(volume.toString(), concat(SMALL_THROUGHPUT, "--json"));

        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertFalse(result.out().contains(S3TestServer.secretKey()), result::toString);
        assertFalse(result.err().contains(S3TestServer.secretKey()), result::toString);
    }

    @Test
    void aPathThatIsNotAnS3UriIsRefused() {
        Cli.Result result = Cli.run("objbench", "/tmp/bucket");

        assertOneErrorLine(result, ExitCodes.BAD_INPUT, "'/tmp/bucket' is not an s3:// URI; give the bucket to"
                + " test as s3://bucket or s3://bucket/prefix");
        assertEquals("", result.out());
    }

    @Test
    void anS3UriWithoutABucketIsRefused() {
        Cli.Result result = Cli.run("objbench", "s3:///prefix");

        assertOneErrorLine(result, ExitCodes.BAD_INPUT, "expected s3://bucket or s3://bucket/prefix");
    }

    @Test
    void aMissingBucketIsOneClearError() {
        Cli.Result result = objbench("s3://strata-no-such-bucket/prefix");

        assertOneErrorLine(result, ExitCodes.FAILURE, "bucket 'strata-no-such-bucket' does not exist at "
                + server.endpoint());
        assertEquals("", result.out(), result::toString);
    }

    @Test
    void anUnreachableEndpointIsOneClearError() {
        Cli.Result result = Cli.run("objbench", volume.toString(), "-o", dashO(server.optionText()),
                "-o", "s3.endpoint=http://127.0.0.1:1,s3.max_attempts=1");

        assertOneErrorLine(result, ExitCodes.FAILURE, "cannot use bucket '" + volume.getHost()
                + "' at http://127.0.0.1:1");
    }

    @Test
    void aBadThreadCountIsRefused() {
        Cli.Result result = Cli.run("objbench", "s3://bucket", "-p", "0");

        assertOneErrorLine(result, ExitCodes.BAD_INPUT, "threads must be at least 1, not 0");
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
