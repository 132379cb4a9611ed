package io.strata.it;

import io.strata.core.ufs.s3.FaultProxy;
import io.strata.core.ufs.s3.FaultProxy.Fault;
import io.strata.core.ufs.s3.S3TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readahead through a FUSE mount of S3, the GETs counted at a pass-through {@link FaultProxy}:
 * interleaved sequential streams on one file each keep their own readahead (a handful of large
 * GETs, not one per page), with the page store on (its whole pages arrive in order per stream);
 * and {@code -o max_readahead=0,prefetch=0} reaches the engine: one GET per page.
 */
class S3ReadaheadMountTest {
    private static final int MIB = 1 << 20;
    private static final int SIZE = 48 * MIB;

    @TempDir
    static Path base;
    static S3TestServer server;
    static URI volume;
    static byte[] data;
    static Counted readahead;
    static Counted none;

    /** A mount behind its own proxy that counts object GETs. */
    record Counted(FaultProxy proxy, AtomicInteger gets, MountedVolume mounted) implements AutoCloseable {
        static Counted mount(Path dir, String... options) throws IOException {
            FaultProxy proxy = FaultProxy.start(server.endpoint());
            AtomicInteger gets = new AtomicInteger();
            proxy.policy((method, target, n) -> {
                if (method.equals("GET") && !target.contains("list-type")) {
                    gets.incrementAndGet();
                }
                return Fault.PASS;
            });
            Map<String, String> s3 = server.optionText(proxy.endpoint());
            try {
                return new Counted(proxy, gets, MountedVolume.overS3(Files.createDirectories(dir), volume, s3,
                        options).mount());
            } catch (IOException | RuntimeException e) {
                proxy.close();
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            try {
                mounted.close();
            } finally {
                proxy.close();
            }
        }
    }

    @BeforeAll
    static void uploadThenMount() throws IOException {
        server = S3TestServer.shared();
        volume = URI.create(server.newVolume("s3-readahead") + "/r");
        data = Bytes.random(21, SIZE);
        server.put(volume, "streams.bin", data);
        server.put(volume, "pages.bin", Arrays.copyOf(data, 8 * MIB));
        // The GETs counted are the readahead's alone: a stream's first read mid-file is a jump, which
        // would also load its block in the background (random_read_load_block, BlockLoaderTest covers it).
        readahead = Counted.mount(base.resolve("default"), "random_read_load_block=0");
        // Reads of whole pages (max_read given: not the splice pipe's 1020 KiB, whose reads straddle two
        // pages, so that a read finding both missing fetches them in one GET): one GET per page is exact.
        none = Counted.mount(base.resolve("none"), "max_readahead=0", "prefetch=0", "random_read_load_block=0",
                "max_read=1MiB");
    }

    @AfterAll
    static void unmount() throws IOException {
        try (Counted a = readahead; Counted b = none) {
            // both closed, even if one fails
        }
    }

    @BeforeEach
    void resetCounts() {
        readahead.gets().set(0);
        none.gets().set(0);
    }

    @Test
    void interleavedSequentialStreamsOnOneFileEachKeepTheirReadahead() throws IOException {
        Path file = readahead.mounted().path("streams.bin");
        int chunk = MIB;
        int streams = 3;
        long[] positions = new long[streams];
        FileChannel[] channels = new FileChannel[streams];
        try {
            for (int s = 0; s < streams; s++) {
                positions[s] = (long) s * SIZE / streams;
                channels[s] = FileChannel.open(file);
            }
            ByteBuffer buffer = ByteBuffer.allocate(chunk);
            for (int round = 0; round < SIZE / streams / chunk; round++) {
                for (int s = 0; s < streams; s++) {
                    buffer.clear();
                    while (buffer.hasRemaining() && channels[s].read(buffer, positions[s] + buffer.position()) > 0) {
                        // a whole chunk
                    }
                    int offset = (int) positions[s];
                    assertArrayEquals(Arrays.copyOfRange(data, offset, offset + chunk), buffer.array(), "at " + offset);
                    positions[s] += chunk;
                }
            }
        } finally {
            for (FileChannel channel : channels) {
                if (channel != null) {
                    channel.close();
                }
            }
        }
        // 48 pages of 1 MiB; per stream a few growing readahead parts of up to 8 MiB.
        assertTrue(readahead.gets().get() <= 24, readahead.gets().get() + " GETs for 48 pages read in 3 streams");
    }

    @Test
    void withoutReadaheadEveryPageIsAGetOfItsOwn() throws IOException {
        assertEquals(Bytes.sha256(Arrays.copyOf(data, 8 * MIB)), Bytes.sha256(none.mounted().path("pages.bin")));
        assertEquals(8, none.gets().get(), "one GET per 1 MiB page");
    }
}
