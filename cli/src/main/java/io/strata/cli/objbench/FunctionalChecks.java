package io.strata.cli.objbench;

import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The functional checks: does the store do what Strata asks of it, request by request. Each check
 * writes its own objects under the run's prefix, so each stands alone (a failed put does not fail
 * every later check with it), and reports {@code pass}, {@code failed: <reason>} or
 * {@code not supported} (the store answered 501 NotImplemented).
 */
public final class FunctionalChecks {
    /** Above S3's 5 MiB minimum for every part but the last. */
    private static final int FIRST_PART = 5 << 20;
    private static final int LAST_PART = (1 << 20) + 17;
    /** Large enough that a client or store buffering it whole in a small buffer shows. */
    static final int LARGE_OBJECT = 32 << 20;

    private final BucketClient bucket;
    private final String prefix;
    private final BooleanSupplier stopped;
    private final Random random = new Random(13);

    /** The checks, in the order they run; each throws {@link Mismatch} or an S3 error. */
    private final Map<String, Check> checks = new LinkedHashMap<>();

    @FunctionalInterface
    private interface Check {
        void run() throws IOException;
    }

    /** The store answered, but not what S3 would have. */
    private static final class Mismatch extends IOException {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message);
        }
    }

    /**
     * @param prefix the key prefix to write under, ending in '/'
     * @param stopped true once the run is to stop (a signal): no further check starts
     */
    public FunctionalChecks(BucketClient bucket, String prefix, BooleanSupplier stopped) {
        this.bucket = requireNonNull(bucket, "bucket is null");
        this.prefix = requireNonNull(prefix, "prefix is null");
        this.stopped = requireNonNull(stopped, "stopped is null");
        checks.put("put", this::put);
        checks.put("get", this::get);
        checks.put("range get", this::rangeGet);
        checks.put("head", this::head);
        checks.put("get missing key", this::getMissing);
        checks.put("overwrite", this::overwrite);
        checks.put("empty object", this::emptyObject);
        checks.put("delete", this::delete);
        checks.put("delete missing key", this::deleteMissing);
        checks.put("list", this::list);
        checks.put("list paging", this::listPaging);
        checks.put("list with delimiter", this::listWithDelimiter);
        checks.put("multipart upload", this::multipartUpload);
        checks.put("large object", this::largeObject);
    }

    /** The names of the checks, in order. */
    public List<String> names() {
        return List.copyOf(checks.keySet());
    }

    /** Runs every check (until stopped), handing each result to {@code results} as it comes. */
    public void run(Consumer<CheckResult> results) {
        for (Map.Entry<String, Check> check : checks.entrySet()) {
            if (stopped.getAsBoolean()) {
                return;
            }
            results.accept(run(check.getKey(), check.getValue()));
        }
    }

    private static CheckResult run(String name, Check check) {
        try {
            check.run();
            return CheckResult.pass(name);
        } catch (IOException e) {
            if (BucketClient.isNotImplemented(e)) {
                return CheckResult.notSupported(name);
            }
            return CheckResult.failed(name, e.getMessage());
        } catch (RuntimeException e) {
            // An SDK or store answer we did not expect (a null field, say): a failure of this check, not of the run.
            return CheckResult.failed(name, e.toString());
        }
    }

    // ---- the checks -------------------------------------------------------------------------

    private void put() throws IOException {
        bucket.put(key("put"), bytes(4096));
    }

    private void get() throws IOException {
        byte[] data = bytes(4096 + 123);
        bucket.put(key("get"), data);
        expectSame("GET", data, bucket.get(key("get")));
    }

    private void rangeGet() throws IOException {
        byte[] data = bytes(64 << 10);
        bucket.put(key("range"), data);
        expectSame("GET of bytes 1000-5095", Arrays.copyOfRange(data, 1000, 5096), bucket.get(key("range"), 1000, 4096));
        // A range past the end is cut at the end, as S3 does and as a reader of a file's last page expects.
        expectSame("GET of a range past the end", Arrays.copyOfRange(data, data.length - 100, data.length),
                bucket.get(key("range"), data.length - 100, 4096));
    }

    private void head() throws IOException {
        bucket.put(key("head"), bytes(12345));
        long size = bucket.size(key("head")).orElseThrow(() -> new Mismatch("HEAD found no object just written"));
        expect(size == 12345, "HEAD gave size " + size + ", expected 12345");
    }

    private void getMissing() throws IOException {
        String missing = key("missing");
        try {
            bucket.get(missing);
        } catch (IOException e) {
            if (BucketClient.isNotFound(e)) {
                return;
            }
            throw new Mismatch("GET of a missing key should be 404 NoSuchKey, got: " + e.getMessage());
        }
        throw new Mismatch("GET of a missing key returned an object");
    }

    private void overwrite() throws IOException {
        bucket.put(key("overwrite"), bytes(3000));
        byte[] second = bytes(2000);
        bucket.put(key("overwrite"), second);
        expectSame("GET after overwrite", second, bucket.get(key("overwrite")));
    }

    /**
     * PUT, HEAD and LIST of an empty object (empty files, directory markers). No GET: Strata knows an
     * empty object's size and never reads it (OpenObject skips the fetch), and the CRT client's GET,
     * which asks for its first part by range, meets 416 InvalidRange on an empty object from some
     * stores (S3Proxy 2.6), which says nothing about what a mount can do.
     */
    private void emptyObject() throws IOException {
        String dir = key("empty") + "/";
        bucket.put(dir + "object", new byte[0]);
        Optional<Long> size = bucket.size(dir + "object");
        expect(size.isPresent(), "HEAD found no empty object after putting one");
        expect(size.get() == 0, "HEAD gave size " + size.get() + " for an empty object");
        List<S3Object> listed = bucket.list(dir, null, 1000, null).contents();
        expect(listed.size() == 1 && listed.get(0).size() == 0, "LIST gave " + listed.stream()
                .map(o -> o.key() + " (" + o.size() + " bytes)").toList() + ", expected one empty object");
    }

    private void delete() throws IOException {
        bucket.put(key("delete"), bytes(100));
        bucket.delete(key("delete"));
        expect(bucket.size(key("delete")).isEmpty(), "HEAD still finds the object after DELETE");
    }

    private void deleteMissing() throws IOException {
        // S3 answers 204 for a key that is not there; Strata's deletes rely on it (an unlink racing another).
        bucket.delete(key("never-written"));
    }

    private void list() throws IOException {
        String dir = key("list") + "/";
        List<String> names = List.of("a", "b/c", "d");
        for (int i = 0; i < names.size(); i++) {
            bucket.put(dir + names.get(i), bytes(10 + i));
        }
        bucket.put(key("list-sibling"), bytes(1)); // shares the text "list" but not the prefix "list/"
        ListObjectsV2Response page = bucket.list(dir, null, 1000, null);
        List<String> listed = page.contents().stream().map(o -> o.key().substring(dir.length())).toList();
        expect(listed.equals(names), "LIST of " + dir + " gave " + listed + ", expected " + names);
        for (int i = 0; i < names.size(); i++) {
            S3Object object = page.contents().get(i);
            expect(object.size() == 10 + i, "LIST gave size " + object.size() + " for " + object.key()
                    + ", expected " + (10 + i));
        }
        expect(!Boolean.TRUE.equals(page.isTruncated()), "LIST of 3 keys said it was truncated");
    }

    private void listPaging() throws IOException {
        String dir = key("paging") + "/";
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            bucket.put(dir + i, bytes(1));
            expected.add(dir + i);
        }
        List<String> listed = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ListObjectsV2Response page = bucket.list(dir, null, 2, token);
            pages++;
            expect(page.contents().size() <= 2, "LIST with max-keys 2 gave " + page.contents().size() + " keys");
            page.contents().forEach(o -> listed.add(o.key()));
            boolean truncated = Boolean.TRUE.equals(page.isTruncated());
            expect(!truncated || page.nextContinuationToken() != null, "a truncated LIST page has no continuation"
                    + " token");
            token = truncated ? page.nextContinuationToken() : null;
            expect(pages <= 5, "LIST with max-keys 2 did not end after 5 pages for 5 keys");
        } while (token != null);
        expect(listed.equals(expected), "LIST page by page gave " + listed + ", expected " + expected);
        expect(pages == 3, "LIST of 5 keys, 2 a page, took " + pages + " pages, expected 3");
    }

    private void listWithDelimiter() throws IOException {
        String dir = key("tree") + "/";
        bucket.put(dir + "file", bytes(1));
        bucket.put(dir + "sub/one", bytes(1));
        bucket.put(dir + "sub/two", bytes(1));
        ListObjectsV2Response page = bucket.list(dir, "/", 1000, null);
        List<String> files = page.contents().stream().map(S3Object::key).toList();
        List<String> dirs = page.commonPrefixes().stream().map(CommonPrefix::prefix).toList();
        // Strata lists a directory this way: files as objects, subdirectories as common prefixes.
        expect(files.equals(List.of(dir + "file")) && dirs.equals(List.of(dir + "sub/")),
                "LIST with delimiter '/' gave objects " + files + " and prefixes " + dirs + ", expected ["
                        + dir + "file] and [" + dir + "sub/]");
    }

    private void multipartUpload() throws IOException {
        String key = key("multipart");
        byte[] first = bytes(FIRST_PART);
        byte[] last = bytes(LAST_PART);
        String uploadId = bucket.createMultipartUpload(key);
        boolean completed = false;
        try {
            List<CompletedPart> parts = List.of(bucket.uploadPart(key, uploadId, 1, first),
                    bucket.uploadPart(key, uploadId, 2, last));
            bucket.completeMultipartUpload(key, uploadId, parts);
            completed = true;
        } finally {
            if (!completed) {
                abortQuietly(key, uploadId);
            }
        }
        long size = bucket.size(key).orElseThrow(() -> new Mismatch("HEAD found no object after completing"
                + " its multipart upload"));
        expect(size == FIRST_PART + LAST_PART, "the completed upload has size " + size + ", expected "
                + (FIRST_PART + LAST_PART));
        byte[] whole = bucket.get(key);
        expectSame("GET of part 1", first, Arrays.copyOfRange(whole, 0, Math.min(whole.length, FIRST_PART)));
        expectSame("GET of part 2", last, Arrays.copyOfRange(whole, FIRST_PART, whole.length));
    }

    private void largeObject() throws IOException {
        byte[] data = bytes(LARGE_OBJECT);
        bucket.put(key("large"), data);
        byte[] back = bucket.get(key("large"));
        expectSame("GET of a " + (LARGE_OBJECT >> 20) + " MiB object", data, back);
    }

    // ---- helpers ----------------------------------------------------------------------------

    private void abortQuietly(String key, String uploadId) {
        try {
            bucket.abortMultipartUpload(key, uploadId);
        } catch (IOException e) {
            // The check's own failure is the news; an upload left behind is the store's lifecycle rules' to expire.
        }
    }

    private String key(String name) {
        return prefix + name;
    }

    private byte[] bytes(int n) {
        byte[] data = new byte[n];
        random.nextBytes(data);
        return data;
    }

    private static void expect(boolean condition, String message) throws Mismatch {
        if (!condition) {
            throw new Mismatch(message);
        }
    }

    private static void expectSame(String what, byte[] expected, byte[] actual) throws Mismatch {
        if (expected.length != actual.length) {
            throw new Mismatch(what + " gave " + actual.length + " bytes, expected " + expected.length);
        }
        int mismatch = Arrays.mismatch(expected, actual);
        if (mismatch >= 0) {
            throw new Mismatch(what + " gave different bytes from offset " + mismatch);
        }
    }
}
