package io.strata.core.readahead;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code strata.readahead.*} meters over an engine reading a {@link FakeObject}: they show the
 * engine's own counters and budget, whatever those are at the time the registry is read.
 */
class ReadaheadMetricsTest {
    private static final int KIB = 1 << 10;
    private static final int MIB = 1 << 20;
    /** Sizes scaled down 16x from the defaults, as in PrefetcherTest. */
    private static final int BLOCK = 64 * KIB;
    private static final int PART = 512 * KIB;
    private static final long BUFFER = 16 * MIB;

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final FakeObject object = new FakeObject(8 * MIB, 1);
    private Readahead engine;

    @BeforeEach
    void bind() {
        engine = new Readahead(new ReadaheadConfig(2 * MIB, true, BUFFER, BLOCK, PART, BLOCK, BLOCK, 4));
        new ReadaheadMetrics(engine).bindTo(registry);
    }

    /** Reads {@code [0, end)} in 64 KiB reads, as a sequential stream does. */
    private static void readSequentially(Prefetcher prefetcher, long end) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(64 * KIB);
        for (long offset = 0; offset < end; offset += buffer.capacity()) {
            buffer.clear();
            while (buffer.hasRemaining() && prefetcher.read(buffer, offset + buffer.position()) >= 0) {
                // loop over short reads
            }
        }
    }

    private double counter(String name) {
        return registry.get(name).functionCounter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Test
    void countersShowTheEngineStatsAfterSequentialReads() throws IOException {
        try (Prefetcher prefetcher = engine.open(object, object.data.length, "fake")) {
            readSequentially(prefetcher, object.data.length);
        }
        ReadaheadStats stats = engine.stats();
        assertTrue(counter("strata.readahead.requests") > 0, "requests: " + stats);
        assertTrue(counter("strata.readahead.requests.ahead") > 0, "readahead requests: " + stats);
        assertEquals(stats.requests(), counter("strata.readahead.requests"));
        assertEquals(stats.readaheadRequests(), counter("strata.readahead.requests.ahead"));
        assertEquals(stats.requestedBytes(), counter("strata.readahead.bytes.requested"));
        assertEquals(stats.joinedReads(), counter("strata.readahead.reads.joined"));
        assertEquals(stats.unreadBytes(), counter("strata.readahead.bytes.unread"));
        assertEquals(stats.refusedReadahead(), counter("strata.readahead.refused"));
        assertEquals(stats.reclaimedBytes(), counter("strata.readahead.bytes.reclaimed"));
    }

    @Test
    void bufferUsedShowsReadaheadHeldAndReturnsToZeroAfterClose() throws IOException {
        try (Prefetcher prefetcher = engine.open(object, object.data.length, "fake")) {
            readSequentially(prefetcher, object.data.length / 2);
            assertTrue(gauge("strata.readahead.buffer.used") > 0, "readahead ahead of the stream: " + engine.budget());
            assertEquals(engine.budget().used(), gauge("strata.readahead.buffer.used"));
        }
        assertEquals(0, gauge("strata.readahead.buffer.used"));
    }

    @Test
    void bufferLimitIsTheBufferSize() {
        assertEquals(BUFFER, gauge("strata.readahead.buffer.limit"));
    }

    @Test
    void byteMetersAreInBytes() {
        assertEquals("bytes", registry.get("strata.readahead.bytes.requested").meter().getId().getBaseUnit());
        assertEquals("bytes", registry.get("strata.readahead.buffer.used").meter().getId().getBaseUnit());
    }
}
