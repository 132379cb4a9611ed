package io.strata.cli.objbench;

import io.strata.core.ufs.s3.S3Location;
import io.strata.core.ufs.s3.S3TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.DelegatingS3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the checks report a store that differs from S3: a real server ({@link S3TestServer}) behind
 * a client that changes one answer, so that every other check still passes.
 */
class FunctionalChecksTest {
    private final S3TestServer server = S3TestServer.shared();
    private String bucket;

    @BeforeEach
    void newBucket(TestInfo test) {
        bucket = S3Location.parse(server.newVolume("checks-" + test.getTestMethod().orElseThrow().getName()))
                .bucket();
    }

    /** Runs the checks through {@code client}; the results by check name. */
    private Map<String, CheckResult> run(S3AsyncClient client) {
        Map<String, CheckResult> results = new LinkedHashMap<>();
        new FunctionalChecks(new BucketClient(client, bucket), "checks/", () -> false).run(r -> results.put(r.check(), r));
        return results;
    }

    /** Every check but {@code except} passed. */
    private static void assertOthersPass(Map<String, CheckResult> results, String except) {
        List<String> others = new ArrayList<>();
        results.forEach((name, result) -> {
            if (!name.equals(except) && result.outcome() != CheckResult.Outcome.PASS) {
                others.add(name + ": " + result.shown());
            }
        });
        assertEquals(List.of(), others);
    }

    @Test
    void aStoreThatDoesNotImplementMultipartUploadsIsNotSupported() {
        Map<String, CheckResult> results = run(new Unclosed(server.client()) {
            @Override
            public CompletableFuture<CreateMultipartUploadResponse> createMultipartUpload(
                    CreateMultipartUploadRequest request) {
                return CompletableFuture.failedFuture(S3Exception.builder().statusCode(501)
                        .awsErrorDetails(AwsErrorDetails.builder().errorCode("NotImplemented").build()).build());
            }
        });

        assertEquals("not supported", results.get("multipart upload").shown());
        assertOthersPass(results, "multipart upload");
    }

    @Test
    void aStoreThatIgnoresRangesFailsRangeGetSayingWhatItGot() {
        Map<String, CheckResult> results = run(new Unclosed(server.client()) {
            @Override
            public <T> CompletableFuture<T> getObject(GetObjectRequest request,
                                                      AsyncResponseTransformer<GetObjectResponse, T> transformer) {
                return super.getObject(request.toBuilder().range(null).build(), transformer);
            }
        });

        assertEquals("failed: GET of bytes 1000-5095 gave 65536 bytes, expected 4096",
                results.get("range get").shown());
        assertOthersPass(results, "range get");
    }

    @Test
    void aStoreThatAnswersAMissingKeyWithAnotherErrorFailsThatCheck() {
        Map<String, CheckResult> results = run(new Unclosed(server.client()) {
            @Override
            public <T> CompletableFuture<T> getObject(GetObjectRequest request,
                                                      AsyncResponseTransformer<GetObjectResponse, T> transformer) {
                if (request.key().endsWith("/missing")) {
                    return CompletableFuture.failedFuture(S3Exception.builder().statusCode(403)
                            .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDenied").build()).build());
                }
                return super.getObject(request, transformer);
            }
        });

        CheckResult missing = results.get("get missing key");
        assertEquals(CheckResult.Outcome.FAILED, missing.outcome());
        assertTrue(missing.reason().startsWith("GET of a missing key should be 404 NoSuchKey, got: "), missing::shown);
        assertTrue(missing.reason().contains("AccessDenied"), missing::shown);
        assertOthersPass(results, "get missing key");
    }

    /** The test server's client, not closed by the BucketClient over it: other tests share it. */
    private static class Unclosed extends DelegatingS3AsyncClient {
        Unclosed(S3AsyncClient client) {
            super(client);
        }

        @Override
        public void close() {
        }
    }
}
