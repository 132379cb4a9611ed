package io.strata.cli.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

/**
 * {@code strata bench --json}: the report as one JSON document, for scripts and for comparing
 * runs. Sizes are bytes, times seconds; each row keeps its counts next to its figures, and the
 * figures' ratings ({@code good}, {@code fair}, {@code poor}) are those the table colours.
 *
 * <pre>{@code
 * {"path": ..., "mount": {"mountPoint", "type", "source", "strataKind"} | null,
 *  "threads", "blockSize", "bigFileSize", "smallFileSize", "smallFileCount",
 *  "cachesDropped": bool, "cachesNotDroppedReason": string | null, "seconds",
 *  "results": [{"item", "label", "files", "bytes", "seconds", "rate", "rateUnit", "rateRating",
 *               "cost", "costUnit", "costRating"}]}
 * }</pre>
 */
public final class BenchJson {
    private static final JsonFactory FACTORY = JsonFactory.builder().build()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET); // the writer is picocli's stdout

    private BenchJson() {}

    public static void write(BenchReport report, Writer out) throws IOException {
        try (JsonGenerator json = FACTORY.createGenerator(out).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            BenchTarget target = report.target();
            json.writeStringField("path", target.path().toString());
            if (target.mount().isPresent()) {
                var mount = target.mount().get();
                json.writeObjectFieldStart("mount");
                json.writeStringField("mountPoint", mount.mountPoint().toString());
                json.writeStringField("type", mount.fsType());
                json.writeStringField("source", mount.source());
                json.writeStringField("strataKind", target.strataKind().orElse(null));
                json.writeEndObject();
            } else {
                json.writeNullField("mount");
            }
            BenchSpec spec = report.spec();
            json.writeNumberField("threads", spec.threads());
            json.writeNumberField("blockSize", spec.blockSize());
            json.writeNumberField("bigFileSize", spec.bigFileSize());
            json.writeNumberField("smallFileSize", spec.smallFileSize());
            json.writeNumberField("smallFileCount", spec.smallFileCount());
            json.writeBooleanField("cachesDropped", report.cachesNotDropped().isEmpty());
            json.writeStringField("cachesNotDroppedReason", report.cachesNotDropped().orElse(null));
            json.writeNumberField("seconds", report.nanos() / 1e9);
            json.writeArrayFieldStart("results");
            for (BenchResult result : report.results()) {
                json.writeStartObject();
                json.writeStringField("item", result.item().name().toLowerCase(Locale.ROOT));
                json.writeStringField("label", result.item().label());
                json.writeNumberField("files", result.files());
                json.writeNumberField("bytes", result.bytes());
                json.writeNumberField("seconds", result.seconds());
                json.writeNumberField("rate", result.rate());
                json.writeStringField("rateUnit", result.item().rateUnit());
                json.writeStringField("rateRating", result.rateRating().name().toLowerCase(Locale.ROOT));
                json.writeNumberField("cost", result.cost());
                json.writeStringField("costUnit", result.item().costUnit());
                json.writeStringField("costRating", result.costRating().name().toLowerCase(Locale.ROOT));
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        out.write(System.lineSeparator());
        out.flush();
    }
}
