package io.strata.core.ufs.s3;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.conf.Options;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.readahead.ReadaheadConfig;
import io.strata.core.readahead.ReadaheadStats;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.s3.FaultProxy.Fault;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.strata.core.ufs.s3.S3UnderFileSystemSemanticsTest.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads of S3 objects through the readahead engine, with real parts: S3Proxy over HTTP, the SDK's
 * async client, and {@link FaultProxy} in between to count the GETs the server sees and to inject
 * faults. Sequential reads need few GETs; concurrent reads of one range share one; faults never
 * give wrong bytes; a replaced object is never mixed with the version opened.
 */
class S3ReadaheadTest {
    private static final int MIB = 1 << 20;
    private static final long PART = ProxiedVolume.PART;

    @TempDir
    Path staging;

    private final S3TestServer server = S3TestServer.shared();
    private ProxiedVolume proxied;
    private FaultProxy proxy;
    private final AtomicInteger gets = new AtomicInteger();
    private final AtomicInteger heads = new AtomicInteger();
    private URI volume;
    private S3UnderFileSystem ufs;
    private ExecutorService pool;

    @BeforeEach
    void start(TestInfo test) throws IOException {
        proxied = ProxiedVolume.start(server, test, staging);
        volume = proxied.uri();
        proxy = proxied.proxy();
        passAll();
        ufs = open(ReadaheadConfig.DEFAULT);
        pool = Executors.newFixedThreadPool(8);
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        pool.awaitTermination(30, TimeUnit.SECONDS);
        ufs.close();
        proxied.close();
        assertEquals(0, ufs.readahead().budget().used(), "every buffer given back after the files closed");
    }

    private S3UnderFileSystem open(ReadaheadConfig readahead) {
        Options options = proxied.options("s3.max_attempts", "4", "s3.retry_base_delay", "20ms",
                "s3.retry_max_delay", "200ms", "s3.socket_timeout", "2s");
        return proxied.open(S3Clients.create(options), readahead);
    }

    /** Every request passes; GETs are counted. */
    private void passAll() {
        proxy.policy((method, target, n) -> {
            if (method.equals("GET") && !target.contains("list-type")) {
                gets.incrementAndGet();
            }
            if (method.equals("HEAD")) {
                heads.incrementAndGet();
            }
            return Fault.PASS;
        });
    }

    /** Reads {@code length} bytes at {@code offset}, looping over short reads. */
    private static byte[] read(UfsFile file, long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (file.read(buffer, offset + buffer.position()) < 0) {
                break;
            }
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static byte[] slice(byte[] data, long offset, int length) {
        int from = (int) Math.min(offset, data.length);
        return Arrays.copyOfRange(data, from, (int) Math.min(data.length, from + (long) length));
    }

    @Test
    void aSequentialReadOfALargeObjectTakesFewGets() throws IOException {
        byte[] data = randomBytes(40 * MIB + 5, 1);
        server.put(volume, "big", data);
        try (UfsFile file = ufs.open("big", false)) {
            for (long offset = 0; offset < data.length; offset += MIB) { // the page store's pages
                assertArrayEquals(slice(data, offset, MIB), read(file, offset, MIB), "page at " + offset);
            }
        }
        ReadaheadStats stats = ufs.readahead().stats();
        assertTrue(gets.get() <= 16, gets.get() + " GETs for 41 pages; " + stats);
        assertEquals(gets.get(), stats.requests(), "each part one GET: " + stats);
        assertEquals(data.length, stats.requestedBytes(), "every byte fetched once: " + stats);
    }

    @Test
    void concurrentReadsOfOneRangeShareOneGet() throws Exception {
        byte[] data = randomBytes(4 * MIB, 2);
        server.put(volume, "shared", data);
        try (UfsFile file = ufs.open("shared", false)) {
            proxy.delay(Duration.ofMillis(1500)).policy((method, target, n) -> {
                if (method.equals("GET")) {
                    gets.incrementAndGet();
                    return Fault.DELAY;
                }
                return Fault.PASS;
            });
            CountDownLatch go = new CountDownLatch(1);
            List<Future<byte[]>> reads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                reads.add(pool.submit(() -> {
                    go.await();
                    return read(file, MIB, MIB);
                }));
            }
            go.countDown();
            for (Future<byte[]> read : reads) {
                assertArrayEquals(slice(data, MIB, MIB), read.get(30, TimeUnit.SECONDS));
            }
            assertEquals(1, gets.get(), "one GET at the server; " + ufs.readahead().stats());
        }
    }

    @Test
    void readsThroughThrottlingErrorsAndResetsNeverReturnWrongBytes() throws Exception {
        byte[] data = randomBytes(12 * MIB + 99, 3);
        server.put(volume, "f", data);
        Fault[] cycle = {Fault.SLOW_DOWN, Fault.RESET_MID_RESPONSE, Fault.PASS, Fault.INTERNAL_ERROR, Fault.RESET,
            Fault.PASS, Fault.RESET_MID_RESPONSE, Fault.PASS, Fault.PASS};
        try (UfsFile file = ufs.open("f", false)) {
            proxy.policy((method, target, n) -> method.equals("GET") ? cycle[n % cycle.length] : Fault.PASS);
            AtomicInteger failed = new AtomicInteger();
            AtomicInteger succeeded = new AtomicInteger();
            List<Future<?>> readers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                readers.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    long position = seed * 3L * MIB;
                    for (int i = 0; i < 40; i++) {
                        if (seed >= 2) {
                            position = random.nextInt(data.length);
                        }
                        int length = seed >= 2 ? 1 + random.nextInt(64 << 10) : 256 << 10;
                        try {
                            assertArrayEquals(slice(data, position, length), read(file, position, length),
                                    "bytes at " + position);
                            succeeded.incrementAndGet();
                        } catch (IOException e) {
                            failed.incrementAndGet(); // past the retry budget: an error, never wrong bytes
                        }
                        position += length;
                    }
                    return null;
                }));
            }
            for (Future<?> reader : readers) {
                reader.get(120, TimeUnit.SECONDS);
            }
            assertTrue(proxy.faults() > 10, "faults injected: " + proxy.faults());
            assertTrue(succeeded.get() >= 140, succeeded + " reads succeeded, " + failed + " failed");
        }
    }

    @Test
    void openingFromTheRecordAsksNothingAndReadsTheRecordedVersion() throws IOException {
        byte[] data = randomBytes(3 * MIB, 8);
        server.put(volume, "r", data);
        UfsStatus recorded = ufs.status("r").orElseThrow();
        heads.set(0);
        gets.set(0);
        try (UfsFile file = ufs.openRecorded("r", recorded.version(), recorded.size())) {
            assertEquals(0, heads.get() + gets.get(), "no request at open");
            assertArrayEquals(data, read(file, 0, data.length));
            assertEquals(recorded.version(), file.version());
        }
        assertEquals(0, heads.get(), "reads are conditional GETs, no HEAD");
    }

    @Test
    void aReplacedObjectOpenedFromTheRecordFailsWithEstaleUntilRefreshed() throws IOException {
        byte[] first = randomBytes(2 * MIB, 9);
        byte[] second = randomBytes(3 * MIB, 10);
        server.put(volume, "r", first);
        UfsStatus recorded = ufs.status("r").orElseThrow();
        server.put(volume, "r", second);
        try (UfsFile file = ufs.openRecorded("r", recorded.version(), recorded.size())) {
            FsException stale = assertThrows(FsException.class, () -> read(file, 0, MIB));
            assertEquals(FsError.ESTALE, stale.error(), stale.getMessage());
            UfsStatus now = file.refresh().orElseThrow();
            assertEquals(second.length, now.size());
            assertEquals(now.version(), file.version());
            assertArrayEquals(second, read(file, 0, second.length));
        }
    }

    @Test
    void aReplacedObjectIsNeverMixedWithTheVersionOpened() throws IOException {
        byte[] first = randomBytes(24 * MIB, 4);
        byte[] second = randomBytes(24 * MIB, 5);
        server.put(volume, "v", first);
        int served = 0;
        int refused = 0;
        try (UfsFile file = ufs.open("v", false)) {
            for (long offset = 0; offset < 4 * MIB; offset += MIB) {
                assertArrayEquals(slice(first, offset, MIB), read(file, offset, MIB));
            }
            server.put(volume, "v", second);
            for (long offset = 4 * MIB; offset < first.length; offset += MIB) {
                try {
                    assertArrayEquals(slice(first, offset, MIB), read(file, offset, MIB),
                            "only bytes of the version opened, at " + offset);
                    served++;
                } catch (IOException e) {
                    assertTrue(e.getMessage().contains("read 'v'"), e.getMessage());
                    refused++;
                }
            }
        }
        assertTrue(refused > 0, "reads past what was fetched before the change fail: served " + served);
    }

    @Test
    void withoutReadaheadAndPrefetchEachReadIsOneGetOfItsBytes() throws IOException {
        ufs.close();
        ufs = S3UnderFileSystem.open(volume, proxied.options("max_readahead", "0", "prefetch", "0"));
        byte[] data = randomBytes(MIB, 6);
        server.put(volume, "f", data);
        gets.set(0);
        try (UfsFile file = ufs.open("f", false)) {
            for (long offset = 0; offset < data.length; offset += 128 << 10) {
                assertArrayEquals(slice(data, offset, 4096), read(file, offset, 4096));
            }
        }
        assertEquals(8, gets.get());
        assertEquals(8 * 4096, ufs.readahead().stats().requestedBytes());
    }

    @Test
    void boundMetricsCountTheGetsOfARead() throws IOException {
        MeterRegistry registry = new SimpleMeterRegistry();
        ufs.bindMetrics(registry);
        byte[] data = randomBytes(MIB, 7);
        server.put(volume, "metered", data);
        try (UfsFile file = ufs.open("metered", false)) {
            assertArrayEquals(data, read(file, 0, MIB));
        }
        assertEquals(gets.get(), registry.get("strata.readahead.requests").functionCounter().count());
        assertTrue(gets.get() > 0);
    }
}
