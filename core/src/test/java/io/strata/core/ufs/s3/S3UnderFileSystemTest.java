package io.strata.core.ufs.s3;

import io.strata.core.ufs.AbstractUnderFileSystemTest;
import io.strata.core.ufs.UnderFileSystem;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * The conformance suite over S3 ({@link S3TestServer}: S3Proxy in this JVM, or the endpoint in
 * STRATA_TEST_S3_ENDPOINT); S3-only claims are in {@link S3UnderFileSystemSemanticsTest}.
 */
class S3UnderFileSystemTest extends AbstractUnderFileSystemTest {
    @TempDir
    Path staging;

    private String testName = "conformance";

    @org.junit.jupiter.api.BeforeEach
    void name(TestInfo test) {
        testName = test.getTestMethod().map(m -> m.getName()).orElse("conformance");
    }

    @Override
    protected UnderFileSystem createUfs() throws Exception {
        S3TestServer server = S3TestServer.shared();
        return S3UnderFileSystem.open(server.newVolume("conf"), server.options("s3.staging_dir", staging.toString()));
    }
}
