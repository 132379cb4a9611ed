package io.strata.cli.objbench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The report for scripts: one JSON document on stdout once the run is over (an early stop
 * included, with its {@code error}), so that nothing but JSON is ever there. Rates are numbers in
 * fixed units (seconds, milliseconds, MiB/s, operations/s); a phase not run is absent.
 *
 * <pre>{@code
 * {"target": "s3://bucket/prefix", "endpoint": "...", "client": "crt", "scratch": "prefix/strata-objbench-.../",
 *  "functional": [{"check": "put", "result": "pass"}, {"check": "...", "result": "failed", "reason": "..."}],
 *  "throughput": {"threads": 4, "smallObjectSize": 131072, "smallObjects": 100, "bigObjectSize": 268435456,
 *                 "blockSize": 4194304, "rows": [{"item": "put big object", "unit": "block", "operations": 64,
 *                 "bytes": 268435456, "seconds": 2.1, "operationsPerSecond": 30.5, "mibPerSecond": 121.9,
 *                 "averageLatencyMs": 130.2}, ...]},
 *  "error": "..."}
 * }</pre>
 */
public final class JsonReport implements Report {
    private final PrintWriter out;
    private RunInfo run;
    private List<CheckResult> checks;
    private ThroughputSettings settings;
    private final List<ThroughputRow> rows = new ArrayList<>();

    public JsonReport(PrintWriter out) {
        this.out = requireNonNull(out, "out is null");
    }

    @Override
    public void start(RunInfo run) {
        this.run = run;
    }

    @Override
    public void startChecks(int count) {
        checks = new ArrayList<>();
    }

    @Override
    public void check(CheckResult result) {
        checks.add(result);
    }

    @Override
    public void startThroughput(ThroughputSettings settings) {
        this.settings = settings;
    }

    @Override
    public void row(ThroughputRow row) {
        rows.add(row);
    }

    @Override
    public void finish(String error) {
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            // The writer is picocli's, closed by it; the generator only flushes.
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            if (run != null) {
                json.writeStringField("target", run.target());
                json.writeStringField("endpoint", run.endpoint());
                json.writeStringField("client", run.client());
                json.writeStringField("scratch", run.scratch());
            }
            if (checks != null) {
                writeChecks(json);
            }
            if (settings != null) {
                writeThroughput(json);
            }
            if (error != null) {
                json.writeStringField("error", error);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
        out.flush();
    }

    private void writeChecks(JsonGenerator json) throws IOException {
        json.writeArrayFieldStart("functional");
        for (CheckResult check : checks) {
            json.writeStartObject();
            json.writeStringField("check", check.check());
            json.writeStringField("result", check.outcome().shown());
            if (check.reason() != null) {
                json.writeStringField("reason", check.reason());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private void writeThroughput(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("throughput");
        json.writeNumberField("threads", settings.threads());
        json.writeNumberField("smallObjectSize", settings.smallObjectSize());
        json.writeNumberField("smallObjects", settings.smallObjects());
        json.writeNumberField("bigObjectSize", settings.bigObjectSize());
        json.writeNumberField("blockSize", settings.blockSize());
        json.writeArrayFieldStart("rows");
        for (ThroughputRow row : rows) {
            json.writeStartObject();
            json.writeStringField("item", row.item());
            json.writeStringField("unit", row.unit());
            json.writeNumberField("operations", row.operations());
            json.writeNumberField("bytes", row.bytes());
            json.writeNumberField("seconds", row.seconds());
            json.writeNumberField("operationsPerSecond", row.operationsPerSecond());
            json.writeNumberField("mibPerSecond", row.mibPerSecond());
            json.writeNumberField("averageLatencyMs", row.averageLatencyMillis());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}
