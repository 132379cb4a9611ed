package io.strata.it;

import io.strata.core.ufs.s3.FaultProxy;
import io.strata.core.ufs.s3.FaultProxy.Fault;
import io.strata.core.ufs.s3.S3TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A FUSE mount of S3 through {@link FaultProxy}: reads through throttling, 5xx, resets and
 * stalls return the right bytes; past the retry budget they fail with EIO in bounded time, never
 * with wrong bytes and never hanging; a failed upload is an error of fsync and close.
 */
class S3FaultMountTest {
    private static final int MIB = 1 << 20;

    @TempDir
    static Path base;
    static S3TestServer server;
    static FaultProxy proxy;
    static URI volume;
    static MountedVolume mounted;

    @BeforeAll
    static void mountThroughTheProxy() throws IOException {
        server = S3TestServer.shared();
        proxy = FaultProxy.start(server.endpoint());
        volume = URI.create(server.newVolume("s3-faults") + "/p");
        for (int i = 0; i < 4; i++) {
            server.put(volume, "f" + i, Bytes.random(i, 4 * MIB + i));
        }
        Map<String, String> options = new TreeMap<>(server.optionText(proxy.endpoint()));
        options.put("s3.max_attempts", "4");
        options.put("s3.retry_base_delay", "50ms");
        options.put("s3.retry_max_delay", "500ms");
        options.put("s3.socket_timeout", "2s");
        mounted = MountedVolume.overS3(base, volume, options, "s3.staging_dir=" + base.resolve("staging")).mount();
    }

    @AfterEach
    void heal() {
        proxy.passAll();
    }

    @AfterAll
    static void unmount() throws IOException {
        try {
            if (mounted != null) {
                mounted.close();
            }
        } finally {
            proxy.close();
        }
    }

    @Test
    void readsThroughThrottlingErrorsResetsAndStallsReturnTheRightBytes() throws IOException {
        Fault[] cycle = {Fault.SLOW_DOWN, Fault.PASS, Fault.RESET_MID_RESPONSE, Fault.PASS, Fault.INTERNAL_ERROR,
            Fault.DELAY, Fault.PASS, Fault.RESET, Fault.PASS};
        proxy.delay(Duration.ofSeconds(3)).policy((method, target, n) -> cycle[n % cycle.length]);
        byte[] expected = Bytes.random(0, 4 * MIB);
        assertTimeoutPreemptively(Duration.ofSeconds(120),
                () -> assertEquals(Bytes.sha256(expected), Bytes.sha256(mounted.path("f0"))));
        assertTrue(proxy.faults() > 5, "faults injected: " + proxy.faults());
    }

    @Test
    void pastTheRetryBudgetAReadFailsWithEioInBoundedTime() throws IOException {
        try (FileChannel channel = FileChannel.open(mounted.path("f1"))) { // open's HEAD passes
            proxy.always("GET", Fault.SLOW_DOWN);
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            IOException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(IOException.class, () -> channel.read(buffer, 0)));
            assertTrue(e.getMessage().contains("Input/output error"), e.getMessage());
            assertEquals(0, buffer.position(), "no bytes");
        }
        proxy.passAll();
        assertEquals(Bytes.sha256(Bytes.random(1, 4 * MIB + 1)), Bytes.sha256(mounted.path("f1")),
                "readable again once the store answers");
    }

    @Test
    void connectionResetsOnEveryAttemptAlsoEndInEio() throws IOException {
        try (FileChannel channel = FileChannel.open(mounted.path("f2"))) {
            proxy.always("GET", Fault.RESET_MID_RESPONSE);
            assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(IOException.class, () -> channel.read(ByteBuffer.allocate(4096), MIB)));
        }
    }

    @Test
    void aFailedUploadIsAnErrorOfFsyncAndClose() throws IOException {
        proxy.always("PUT", Fault.INTERNAL_ERROR);
        Path file = mounted.path("unlucky");
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            channel.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            IOException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(IOException.class, () -> channel.force(true)));
            assertTrue(e.getMessage().contains("Input/output error"), e.getMessage());
        } finally {
            proxy.passAll();
            channel.close(); // the store answers again: this flush uploads
        }
        assertArrayEquals(new byte[] {1, 2, 3}, server.get(volume, "unlucky").orElseThrow());
    }
}
