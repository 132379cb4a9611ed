package io.strata.core.ufs.s3;

import io.strata.core.conf.Options;
import io.strata.core.readahead.ReadaheadConfig;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A new volume of the S3 test server, opened over the client {@code s3.client=crt} makes, with
 * its CRT client already built: what the tests of the requests it routes start from. Skips the
 * test when the server's options name another client.
 */
record CrtVolume(URI uri, CrtReadsClient client, S3UnderFileSystem ufs) implements AutoCloseable {
    static CrtVolume open(S3TestServer server, String name, Path staging) {
        return open(server, name, staging, server.options());
    }

    /** As {@link #open(S3TestServer, String, Path)}, with {@code options} instead of the server's own. */
    static CrtVolume open(S3TestServer server, String name, Path staging, Options options) {
        URI volume = server.newVolume(name);
        assumeTrue(options.get(S3Options.CLIENT) == S3Options.Client.CRT, "these tests are for s3.client=crt");
        CrtReadsClient client = (CrtReadsClient) S3Clients.create(options);
        assertTrue(client.awaitCrtClient(), "the CRT client was not built");
        S3UnderFileSystem ufs = new S3UnderFileSystem(S3Location.parse(volume), client,
                ProxiedVolume.settings(staging), ReadaheadConfig.from(options));
        return new CrtVolume(volume, client, ufs);
    }

    /** Closes the under storage, and with it the client. */
    @Override
    public void close() throws IOException {
        ufs.close();
    }
}
