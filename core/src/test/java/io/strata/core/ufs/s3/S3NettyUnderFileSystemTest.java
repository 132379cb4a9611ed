package io.strata.core.ufs.s3;

import io.strata.core.ufs.AbstractUnderFileSystemTest;
import io.strata.core.ufs.UnderFileSystem;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The conformance suite over S3 on the SDK's async client on Netty alone ({@code s3.client=netty}). */
class S3NettyUnderFileSystemTest extends AbstractUnderFileSystemTest {
    @TempDir
    Path staging;

    @Override
    protected UnderFileSystem createUfs() throws Exception {
        S3TestServer server = S3TestServer.shared();
        return S3UnderFileSystem.open(server.newVolume("netty"),
                server.options("s3.staging_dir", staging.toString(), "s3.client", "netty"));
    }
}
