package io.strata.core.ufs.s3;

import io.strata.core.ufs.UfsFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import static io.strata.core.ufs.s3.S3UnderFileSystemSemanticsTest.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code s3.client=crt} the Netty client is built only when a request needs it
 * ({@link DeferredS3AsyncClient}): a session of reads, stats, listings, small writes and deletes
 * never builds it, a multipart upload does and completes. Against the S3 test server, no proxy.
 */
class DeferredNettyClientTest {
    private static final int PART = (int) S3Options.MIN_PART_SIZE;

    @TempDir
    Path staging;

    private final S3TestServer server = S3TestServer.shared();
    private CrtVolume crt;
    private URI volume;
    private DeferredS3AsyncClient netty;
    private S3UnderFileSystem ufs;

    @BeforeEach
    void open(TestInfo test) {
        crt = CrtVolume.open(server, test.getTestMethod().orElseThrow().getName(), staging);
        volume = crt.uri();
        netty = (DeferredS3AsyncClient) crt.client().delegate();
        ufs = crt.ufs();
    }

    @AfterEach
    void close() throws IOException {
        if (crt != null) {
            crt.close();
        }
    }

    @Test
    void readsStatsListingsSmallWritesAndDeletesNeverBuildTheNettyClient() throws IOException {
        server.put(volume, "d/kept", randomBytes(300_000, 1));
        byte[] small = randomBytes(64 * 1024, 2);
        try (UfsFile file = ufs.create("d/written")) {
            file.write(ByteBuffer.wrap(small), 0);
        }

        List<String> listed = new ArrayList<>();
        ufs.list("d", status -> listed.add(status.name()));
        assertEquals(List.of("kept", "written"), listed.stream().sorted().toList());
        assertEquals(small.length, ufs.status("d/written").orElseThrow().size());
        try (UfsFile file = ufs.open("d/kept", false)) {
            assertEquals(300_000, file.readRange(0, 300_000).remaining());
        }
        assertArrayEquals(small, server.get(volume, "d/written").orElseThrow());
        ufs.deleteFile("d/written");

        assertFalse(ufs.status("d/written").isPresent());
        assertFalse(netty.started(), "the Netty client was built for requests the CRT carries");
    }

    @Test
    void aMultipartUploadBuildsTheNettyClientAndCompletes() throws IOException {
        byte[] data = randomBytes(2 * PART + 1000, 3);
        try (UfsFile file = ufs.create("big")) {
            for (int offset = 0; offset < data.length; offset += 128 * 1024) {
                file.write(ByteBuffer.wrap(data, offset, Math.min(128 * 1024, data.length - offset)), offset);
            }
        }

        assertTrue(netty.started(), "a multipart upload goes through Netty");
        assertArrayEquals(data, server.get(volume, "big").orElseThrow());
    }

    @Test
    void aClosedClientRefusesRequestsWithoutBuildingOne() {
        AtomicInteger builds = new AtomicInteger();
        DeferredS3AsyncClient client = new DeferredS3AsyncClient(() -> {
            builds.incrementAndGet();
            return S3Clients.create(server.options());
        });
        client.close();

        CompletionException refused = assertThrows(CompletionException.class, () -> client.createMultipartUpload(
                CreateMultipartUploadRequest.builder().bucket("b").key("k").build()).join());
        assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertEquals(0, builds.get());
    }
}
