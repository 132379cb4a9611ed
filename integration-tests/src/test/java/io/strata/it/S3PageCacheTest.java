package io.strata.it;

import io.strata.core.ufs.s3.S3TestServer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** The page store over the S3 under storage (S3Proxy in this JVM, or STRATA_TEST_S3_ENDPOINT). */
class S3PageCacheTest extends AbstractPageCacheTest {
    private final S3TestServer server = S3TestServer.shared();
    private final Map<MountedVolume, URI> buckets = new IdentityHashMap<>();

    @Override
    MountedVolume newVolume(Path dir, String... options) throws IOException {
        URI prefix = server.newVolume("page-cache");
        List<String> all = new ArrayList<>(List.of(options));
        all.add("s3.staging_dir=" + dir.resolve("staging"));
        MountedVolume volume = MountedVolume.overS3(dir, prefix, server.optionText(), all.toArray(String[]::new));
        buckets.put(volume, prefix);
        return volume;
    }

    @Override
    void putObject(MountedVolume volume, String name, byte[] data) {
        server.put(buckets.get(volume), name, data);
    }
}
