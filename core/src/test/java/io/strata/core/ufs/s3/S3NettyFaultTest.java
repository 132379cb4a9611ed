package io.strata.core.ufs.s3;

/** {@link S3FaultTest} on the SDK's async client on Netty ({@code s3.client=netty}). */
class S3NettyFaultTest extends S3FaultTest {
    @Override
    String client() {
        return "netty";
    }
}
