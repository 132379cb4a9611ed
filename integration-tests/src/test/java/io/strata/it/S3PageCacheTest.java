package io.strata.it;

import io.strata.core.ufs.s3.S3TestServer;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /**
     * By default an open trusts the recorded version (no HEAD); the first read's conditional GET
     * finds the object replaced, and the file takes the new version before serving anything.
     */
    @Test
    void anObjectReplacedBehindTheMountBeforeItsFirstReadIsReadAnew() throws IOException {
        MountedVolume volume = mount();
        putObject(volume, "f.bin", Bytes.random(21, 2 * MIB));
        assertEquals(2 * MIB, Files.size(volume.path("f.bin"))); // listed: the version is recorded
        putObject(volume, "f.bin", Bytes.random(22, 3 * MIB));
        assertArrayEquals(Bytes.random(22, 3 * MIB), Files.readAllBytes(volume.path("f.bin")));
        assertEquals(3 * MIB, Files.size(volume.path("f.bin")), "the new size is recorded");
    }
}
