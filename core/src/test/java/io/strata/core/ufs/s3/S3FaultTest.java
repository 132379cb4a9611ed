package io.strata.core.ufs.s3;

import io.strata.core.conf.Options;
import io.strata.core.readahead.ReadaheadConfig;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.s3.FaultProxy.Fault;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3AsyncClient;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static io.strata.core.ufs.s3.S3UnderFileSystemSemanticsTest.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The S3 under storage behind {@link FaultProxy}: throttling, 5xx, resets and stalls are retried
 * by the SDK and reads return the right bytes; past the retry budget an operation fails with an
 * IOException in bounded time; a failed upload keeps its data for the next flush.
 */
class S3FaultTest {
    private static final long PART = ProxiedVolume.PART;

    @TempDir
    Path staging;

    private final S3TestServer server = S3TestServer.shared();
    private ProxiedVolume proxied;
    private FaultProxy proxy;
    private URI volume;
    private S3UnderFileSystem ufs;
    private S3AsyncClient s3;

    @BeforeEach
    void start(TestInfo test) throws IOException {
        proxied = ProxiedVolume.start(server, test, staging);
        volume = proxied.uri();
        proxy = proxied.proxy();
        // One GET per read (no readahead or prefetch), so every read meets the faults; reads with
        // readahead through faults: S3ReadaheadTest.
        ufs = open("s3.max_attempts", "4", "s3.retry_base_delay", "20ms", "s3.retry_max_delay", "200ms",
                "s3.socket_timeout", "1s", "max_readahead", "0", "prefetch", "false");
    }

    @AfterEach
    void stop() throws IOException {
        ufs.close();
        proxied.close();
    }

    /** The s3.client these tests run on; null for the product's default. */
    String client() {
        return null;
    }

    private S3UnderFileSystem open(String... options) {
        List<String> pairs = new ArrayList<>(List.of(options));
        if (client() != null) {
            pairs.addAll(List.of("s3.client", client()));
        }
        Options bound = proxied.options(pairs.toArray(String[]::new));
        s3 = S3Clients.create(bound);
        if (s3 instanceof CrtReadsClient crt) {
            assertTrue(crt.awaitCrtClient(), "the CRT client was not built");
        }
        return proxied.open(s3, ReadaheadConfig.from(bound));
    }

    @Test
    void readsReturnTheRightBytesThroughThrottlingErrorsAndResets() throws IOException {
        byte[] data = randomBytes(3 << 20, 1);
        server.put(volume, "f", data);
        // At most two faults in a row, against 6 attempts per request: the spare attempts cover a
        // pooled connection that the proxy closed (Connection: close) being picked before its close
        // is seen, which fails an attempt without reaching the proxy (seen on a loaded machine).
        ufs.close();
        ufs = open("s3.max_attempts", "6", "s3.retry_base_delay", "20ms", "s3.retry_max_delay", "200ms",
                "s3.socket_timeout", "1s", "max_readahead", "0", "prefetch", "false");
        Fault[] cycle = {Fault.SLOW_DOWN, Fault.RESET_MID_RESPONSE, Fault.PASS, Fault.INTERNAL_ERROR, Fault.RESET,
            Fault.PASS, Fault.RESET_MID_RESPONSE, Fault.PASS};
        proxy.policy((method, target, n) -> cycle[n % cycle.length]);

        assertArrayEquals(data, readAll("f", 256 * 1024));
        assertTrue(proxy.faults() >= 12, "faults injected: " + proxy.faults());
    }

    @Test
    void aStalledResponseIsAbandonedAndRetried() throws IOException {
        byte[] data = randomBytes(100_000, 2);
        server.put(volume, "f", data);
        try (UfsFile file = ufs.open("f", false)) {
            proxy.delay(Duration.ofSeconds(3)).first(1, "GET", Fault.DELAY);
            long start = System.nanoTime();
            ByteBuffer buffer = ByteBuffer.allocate(data.length);
            assertEquals(data.length, file.read(buffer, 0));
            assertArrayEquals(data, buffer.array());
            assertTrue(System.nanoTime() - start < 3_000_000_000L, "waited for the stalled attempt");
            if (s3 instanceof CrtReadsClient crt) {
                assertEquals(1, crt.crtGets(), "the stalled GET went to the CRT client first");
            }
        }
    }

    @Test
    void aStalledSmallUploadIsAbandonedAndSentAgain() throws IOException {
        byte[] data = randomBytes(100_000, 9);
        proxy.delay(Duration.ofSeconds(3)).first(1, "PUT", Fault.DELAY);
        long start = System.nanoTime();
        try (UfsFile file = ufs.create("small")) {
            file.write(ByteBuffer.wrap(data), 0);
        }
        assertTrue(System.nanoTime() - start < 3_000_000_000L, "waited for the stalled attempt");
        assertArrayEquals(data, server.get(volume, "small").orElseThrow());
        if (s3 instanceof CrtReadsClient crt) {
            assertEquals(1, crt.crtPuts(), "the stalled PUT went to the CRT client first");
        }
    }

    @Test
    void aStalledUploadPartIsAbandonedAndSentAgain() throws IOException {
        byte[] data = randomBytes((int) (2 * PART + 1000), 10);
        // Longer than the CRT's allowance for a part (the socket timeout, 1 s, and 1 s per MiB).
        proxy.delay(Duration.ofSeconds(12)).first(1, "PUT", Fault.DELAY);
        long start = System.nanoTime();
        try (UfsFile file = ufs.create("parts")) {
            file.write(ByteBuffer.wrap(data), 0);
        }
        assertTrue(System.nanoTime() - start < 12_000_000_000L, "waited for the stalled attempt");
        assertArrayEquals(data, server.get(volume, "parts").orElseThrow());
        if (s3 instanceof CrtReadsClient crt) {
            assertTrue(crt.crtParts() >= 2, "the parts went to the CRT client first: " + crt.crtParts());
        }
    }

    @Test
    void pastTheRetryBudgetAReadFailsInBoundedTimeAndReturnsNothing() throws IOException {
        server.put(volume, "f", randomBytes(1000, 3));
        // A socket timeout longer than the backoff of all attempts: with s3.client=crt a GET whose
        // response has not started within it moves to Netty with a budget of its own (S3Clients).
        ufs.close();
        ufs = open("s3.max_attempts", "4", "s3.retry_base_delay", "20ms", "s3.retry_max_delay", "200ms",
                "s3.socket_timeout", "15s", "max_readahead", "0", "prefetch", "false");
        try (UfsFile file = ufs.open("f", false)) {
            proxy.always("GET", Fault.SLOW_DOWN);
            ByteBuffer buffer = ByteBuffer.allocate(1000);
            IOException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(IOException.class, () -> file.read(buffer, 0)));
            // Netty's client names S3's error code; the CRT client's (s3.client=crt) says "throttling".
            assertTrue(e.getMessage().contains("SlowDown") || e.getMessage().contains("throttling"), e.getMessage());
            assertEquals(0, buffer.position(), "no bytes delivered");
            assertEquals(4, proxy.faults(), "s3.max_attempts attempts");
        }
    }

    @Test
    void resetsOnEveryAttemptEndInAnIoErrorToo() throws IOException {
        server.put(volume, "f", randomBytes(1000, 4));
        try (UfsFile file = ufs.open("f", false)) {
            proxy.always("GET", Fault.RESET_MID_RESPONSE);
            assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(IOException.class, () -> file.read(ByteBuffer.allocate(1000), 0)));
        }
    }

    @Test
    void uploadsAreRetriedThroughFaults() throws IOException {
        byte[] data = randomBytes((int) (2.5 * PART), 5);
        Fault[] cycle = {Fault.INTERNAL_ERROR, Fault.PASS, Fault.SLOW_DOWN, Fault.RESET, Fault.PASS, Fault.PASS};
        proxy.policy((method, target, n) -> cycle[n % cycle.length]);
        try (UfsFile file = ufs.create("up")) {
            for (int offset = 0; offset < data.length; offset += 1 << 20) {
                file.write(ByteBuffer.wrap(data, offset, Math.min(1 << 20, data.length - offset)), offset);
            }
        }
        proxy.passAll();
        assertArrayEquals(data, server.get(volume, "up").orElseThrow());
        assertTrue(proxy.faults() > 0);
    }

    @Test
    void listingIsRetriedToo() throws IOException {
        server.put(volume, "d/a", new byte[1]);
        server.put(volume, "d/b", new byte[1]);
        proxy.first(3, "GET", Fault.SLOW_DOWN);
        List<String> names = new ArrayList<>();
        ufs.list("d", status -> names.add(status.name()));
        names.sort(null);
        assertEquals(List.of("a", "b"), names);
    }

    @Test
    void aFailedUploadFailsForceKeepsTheDataAndALaterForceSucceeds() throws IOException {
        byte[] data = randomBytes(200_000, 6);
        server.put(volume, "f", data);
        try (UfsFile file = ufs.open("f", true)) {
            file.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 10);
            data[10] = 1;
            data[11] = 2;
            data[12] = 3;
            proxy.always("PUT", Fault.INTERNAL_ERROR);
            IOException e = assertThrows(IOException.class, file::force);
            assertTrue(e.getMessage().contains("upload 'f'"), e.getMessage());
            ByteBuffer back = ByteBuffer.allocate(3);
            file.read(back, 10);
            assertArrayEquals(new byte[] {1, 2, 3}, back.array(), "still readable from the staged copy");
            proxy.passAll();
            file.force();
        }
        assertArrayEquals(data, server.get(volume, "f").orElseThrow());
        assertEquals(0, stagedFiles());
    }

    @Test
    void aFailedUploadAtCloseKeepsTheStagedCopy() throws IOException {
        byte[] data = randomBytes(100_000, 7);
        server.put(volume, "f", data);
        byte original = data[0];
        UfsFile file = ufs.open("f", true);
        file.write(ByteBuffer.wrap(new byte[] {(byte) (original + 1)}), 0);
        data[0] = (byte) (original + 1);
        proxy.always("PUT", Fault.SLOW_DOWN);
        assertThrows(IOException.class, file::close);
        proxy.passAll();

        try (Stream<Path> kept = Files.list(staging)) {
            List<Path> files = kept.toList();
            assertEquals(1, files.size());
            assertArrayEquals(data, Files.readAllBytes(files.get(0)));
        }
        assertEquals(original, server.get(volume, "f").orElseThrow()[0], "the object is unchanged");
    }

    @Test
    void aFailedPartFailsLaterWritesAndAFlushUploadsItAgain() throws IOException {
        byte[] data = randomBytes((int) (3 * PART), 8);
        int chunk = 1 << 20;
        int accepted = 0;
        try (UfsFile file = ufs.create("f")) {
            proxy.always("PUT", Fault.INTERNAL_ERROR);
            IOException failure = null;
            for (int offset = 0; offset < data.length && failure == null; offset += chunk) {
                try {
                    file.write(ByteBuffer.wrap(data, offset, chunk), offset);
                    accepted = offset + chunk;
                } catch (IOException e) {
                    failure = e;
                }
                if (offset == 2 * PART) {
                    sleepMillis(2000); // let the first part fail for good
                }
            }
            assertTrue(failure != null, "a write after the failed part must fail");
            assertTrue(failure.getMessage().contains("upload 'f'"), failure.getMessage());
            assertEquals(accepted, file.size(), "a failed write changes nothing");
            proxy.passAll();
            file.force();
        }
        assertArrayEquals(Arrays.copyOf(data, accepted), server.get(volume, "f").orElseThrow());
    }

    private byte[] readAll(String path, int chunk) throws IOException {
        try (UfsFile file = ufs.open(path, false)) {
            byte[] data = new byte[(int) file.size()];
            for (int offset = 0; offset < data.length; offset += chunk) {
                ByteBuffer buffer = ByteBuffer.wrap(data, offset, Math.min(chunk, data.length - offset));
                while (buffer.hasRemaining()) {
                    assertTrue(file.read(buffer, offset + buffer.position() - offset) > 0);
                }
            }
            return data;
        }
    }

    private int stagedFiles() throws IOException {
        try (Stream<Path> files = Files.list(staging)) {
            return (int) files.count();
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
