package io.strata.cli.objbench;

import java.io.IOException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The key prefix one run writes under, {@code <prefix>/strata-objbench-<time>-<random>/}, and its
 * removal: closing it deletes every object under it, whatever the run left (a failed check, an
 * interrupted phase). What cannot be deleted is reported to {@code warnings}, never thrown, so a
 * cleanup problem does not hide the run's own result.
 */
public final class Scratch implements AutoCloseable {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    private final BucketClient bucket;
    private final String prefix;
    private final Consumer<String> warnings;

    private Scratch(BucketClient bucket, String prefix, Consumer<String> warnings) {
        this.bucket = requireNonNull(bucket, "bucket is null");
        this.prefix = requireNonNull(prefix, "prefix is null");
        this.warnings = requireNonNull(warnings, "warnings is null");
    }

    /** A fresh scratch prefix under {@code basePrefix} ("" for the bucket's root). */
    public static Scratch create(BucketClient bucket, String basePrefix, Consumer<String> warnings) {
        // Time first, so that leftovers of an interrupted run sort by age; random, so that runs never share keys.
        String name = "strata-objbench-" + STAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        return new Scratch(bucket, basePrefix.isEmpty() ? name + "/" : basePrefix + "/" + name + "/", warnings);
    }

    /** The scratch key prefix, ending in '/'. */
    public String prefix() {
        return prefix;
    }

    /** A sub-prefix for one phase, ending in '/'. */
    String sub(String name) {
        return prefix + name + "/";
    }

    @Override
    public void close() {
        List<String> keys;
        try {
            keys = bucket.keys(prefix);
        } catch (IOException e) {
            warnings.accept("cannot list " + prefix + " to clean up (" + e.getMessage() + "); delete what is"
                    + " under s3://" + bucket.bucket() + "/" + prefix + " by hand");
            return;
        }
        int failed = 0;
        String firstError = null;
        for (String key : keys) {
            try {
                bucket.delete(key);
            } catch (IOException e) {
                failed++;
                firstError = firstError == null ? e.getMessage() : firstError;
            }
        }
        if (failed > 0) {
            warnings.accept("could not delete " + failed + " of " + keys.size() + " objects under s3://"
                    + bucket.bucket() + "/" + prefix + " (" + firstError + "); delete them by hand");
        }
    }
}
