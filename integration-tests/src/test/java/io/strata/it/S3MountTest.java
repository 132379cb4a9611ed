package io.strata.it;

import io.strata.core.ufs.s3.S3TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code s3://bucket/prefix} mounted through FUSE: objects put with a plain S3 client appear as
 * files with the same bytes, files written through the mount land as ordinary objects under the
 * same names, and renames, deletes and directories follow in the bucket. The S3 server is
 * S3Proxy in this JVM, or the endpoint named by STRATA_TEST_S3_ENDPOINT ({@link S3TestServer}).
 */
class S3MountTest {
    private static final int MIB = 1 << 20;
    private static final int MANY = 10_000;

    @TempDir
    static Path base;
    static S3TestServer server;
    static URI volume;
    static MountedVolume mounted;
    static byte[] big;

    @BeforeAll
    static void uploadThenMount() throws Exception {
        server = S3TestServer.shared();
        volume = URI.create(server.newVolume("s3-mount") + "/data/set");
        big = Bytes.random(12, 12 * MIB + 17);
        server.put(volume, "empty", new byte[0]);
        server.put(volume, "one", new byte[] {42});
        server.put(volume, "dir/nested.bin", Bytes.random(1, MIB + 17));
        server.put(volume, "big.bin", big);
        server.put(volume, "dir/changed.bin", Bytes.random(4, 3 * MIB));
        server.putEmpty(volume, "many/", MANY);
        server.put(volume, "walk/a/one", new byte[] {1});
        server.put(volume, "walk/b/two", new byte[] {2});
        server.put(volume, "walk/c/three", new byte[] {3});
        server.put(URI.create(volume.toString().replace("/data/set", "")), "outside-the-prefix", new byte[1]);
        mounted = MountedVolume.overS3(base, volume, server.optionText(),
                "s3.staging_dir=" + base.resolve("staging")).mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (mounted != null) {
            mounted.close();
        }
    }

    @Test
    void objectsInTheBucketAreFilesWithTheSameBytes() throws IOException {
        assertTrue(MountedVolume.names(mounted.mountPoint()).containsAll(List.of("big.bin", "dir", "empty", "one")));
        assertFalse(MountedVolume.names(mounted.mountPoint()).contains("outside-the-prefix"));
        assertEquals(0, Files.size(mounted.path("empty")));
        assertArrayEquals(new byte[] {42}, Files.readAllBytes(mounted.path("one")));
        assertEquals(Bytes.sha256(server.get(volume, "dir/nested.bin").orElseThrow()),
                Bytes.sha256(mounted.path("dir/nested.bin")));
        assertEquals(big.length, Files.size(mounted.path("big.bin")));
        assertEquals(Bytes.sha256(big), Bytes.sha256(mounted.path("big.bin")));
        assertTrue(Files.isDirectory(mounted.path("dir")));
    }

    @Test
    void aDirectoryOfTenThousandKeysListsCompletely() throws IOException {
        List<String> names = MountedVolume.names(mounted.path("many"));
        assertEquals(MANY, names.size());
        assertEquals("k00000", names.get(0));
        assertEquals(String.format("k%05d", MANY - 1), names.get(MANY - 1));
    }

    /**
     * The first listing of walk/a asks S3 for the keys from walk/a on, which hold walk/b and walk/c
     * whole: their listings are merged with a's, as of then (docs/SEMANTICS.md, "Listing"), so an
     * object put in walk/b afterwards does not show, as it would had b been listed on its own.
     */
    @Test
    void aWalkTakesTheNextDirectoriesListingsAlongWithTheFirst() throws IOException {
        assertEquals(List.of("one"), MountedVolume.names(mounted.path("walk/a")));
        server.put(volume, "walk/b/late", new byte[] {4});

        assertEquals(List.of("two"), MountedVolume.names(mounted.path("walk/b")));
        assertEquals(List.of("three"), MountedVolume.names(mounted.path("walk/c")));
        assertArrayEquals(new byte[] {2}, Files.readAllBytes(mounted.path("walk/b/two")));
    }

    @Test
    void filesWrittenThroughTheMountAreObjectsUnderTheSameNames() throws IOException {
        Files.createDirectories(mounted.path("written/sub"));
        byte[] small = Bytes.random(2, 1000);
        Files.write(mounted.path("written/small.txt"), small);
        MessageDigest reference = Bytes.sha256();
        Random random = new Random(3);
        byte[] chunk = new byte[MIB];
        try (OutputStream out = Files.newOutputStream(mounted.path("written/sub/streamed.bin"))) {
            for (int i = 0; i < 20; i++) { // 20 MiB: a multipart upload of 8 MiB parts
                random.nextBytes(chunk);
                reference.update(chunk);
                out.write(chunk);
            }
        }
        assertArrayEquals(small, server.get(volume, "written/small.txt").orElseThrow());
        assertEquals(HexFormat.of().formatHex(reference.digest()),
                Bytes.sha256(server.get(volume, "written/sub/streamed.bin").orElseThrow()));
        assertTrue(server.keys(volume).contains("written/sub/"), "mkdir made a marker: " + server.keys(volume));
        assertEquals(List.of(), stagingFiles(), "sequential writers need no staging file");
    }

    @Test
    void fallocatePastTheEndIsRefusedAndAFileLaidOutLikeFiosStillStreams() throws IOException {
        Path dir = Files.createDirectories(mounted.path("allocated"));
        Shell.Result extend = Shell.sh(dir, "touch f && fallocate -l 1MiB f");
        assertTrue(extend.exit() != 0 && extend.err().contains("not supported"), extend.describe());
        assertEquals(0, Files.size(dir.resolve("f")), "the refused fallocate changed nothing");
        if (Transport.current() == Transport.KERNEL) { // libfuse2's API has no fallocate: refused whatever the mode
            Shell.sh(dir, "fallocate --keep-size -l 1MiB f").assertOk();
            assertEquals(0, Files.size(dir.resolve("f")));
        }

        byte[] data = Bytes.random(5, 20 * MIB);
        // fio's layout: create, (fallocate, refused), close; then open again and write front to back.
        Files.write(dir.resolve("laid-out.bin"), new byte[0]);
        try (OutputStream out = Files.newOutputStream(dir.resolve("laid-out.bin"), StandardOpenOption.WRITE)) {
            for (int offset = 0; offset < data.length; offset += MIB) {
                out.write(data, offset, MIB);
            }
            assertEquals(List.of(), stagingFiles(), "an empty object written again streams: nothing to fetch");
        }
        assertArrayEquals(data, server.get(volume, "allocated/laid-out.bin").orElseThrow());
    }

    @Test
    void overwritesAppendsAndTruncatesOfExistingObjectsLand() throws IOException {
        byte[] data = Bytes.random(4, 3 * MIB); // uploaded before the mount, so the namespace knows it
        try (RandomAccessFile file = new RandomAccessFile(mounted.path("dir/changed.bin").toFile(), "rw")) {
            file.seek(MIB + 3);
            file.write(new byte[] {1, 2, 3});
        }
        data[MIB + 3] = 1;
        data[MIB + 4] = 2;
        data[MIB + 5] = 3;
        assertArrayEquals(data, server.get(volume, "dir/changed.bin").orElseThrow());

        Files.write(mounted.path("dir/changed.bin"), new byte[] {7, 7}, StandardOpenOption.APPEND);
        byte[] appended = Arrays.copyOf(data, data.length + 2);
        appended[data.length] = 7;
        appended[data.length + 1] = 7;
        assertArrayEquals(appended, server.get(volume, "dir/changed.bin").orElseThrow());

        Files.write(mounted.path("dir/changed.bin"), new byte[] {5}); // O_TRUNC, then one byte
        assertArrayEquals(new byte[] {5}, server.get(volume, "dir/changed.bin").orElseThrow());
        assertEquals(List.of(), stagingFiles(), "staged copies are removed once uploaded");
    }

    @Test
    void renamesAndDeletesFollowInTheBucket() throws IOException {
        Files.createDirectories(mounted.path("moves/a"));
        Files.write(mounted.path("moves/a/f1"), new byte[] {1});
        Files.write(mounted.path("moves/a/f2"), new byte[] {2});
        Files.move(mounted.path("moves/a/f1"), mounted.path("moves/g1"));
        assertEquals(List.of("moves/", "moves/a/", "moves/a/f2", "moves/g1"), keysUnder("moves/"));

        Files.move(mounted.path("moves/a"), mounted.path("moves/b"));
        assertEquals(List.of("moves/", "moves/b/", "moves/b/f2", "moves/g1"), keysUnder("moves/"));
        assertArrayEquals(new byte[] {2}, Files.readAllBytes(mounted.path("moves/b/f2")));

        Files.delete(mounted.path("moves/b/f2"));
        Files.delete(mounted.path("moves/b"));
        Files.delete(mounted.path("moves/g1"));
        assertEquals(List.of("moves/"), keysUnder("moves/"), "the emptied directory keeps its marker");
        Files.delete(mounted.path("moves"));
        assertEquals(List.of(), keysUnder("moves/"));
    }

    @Test
    void interleavedSequentialReadsOfOneFileGetTheRightBytes() throws Exception {
        int readers = 4;
        int chunk = 128 * 1024;
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                int start = r * (big.length / readers);
                int end = r == readers - 1 ? big.length : start + big.length / readers;
                results.add(pool.submit(() -> {
                    try (FileChannel channel = FileChannel.open(mounted.path("big.bin"))) {
                        ByteBuffer buffer = ByteBuffer.allocate(chunk);
                        for (int offset = start; offset < end; offset += chunk) {
                            buffer.clear().limit(Math.min(chunk, end - offset));
                            while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) > 0) {
                                // keep reading
                            }
                            assertArrayEquals(Arrays.copyOfRange(big, offset, offset + buffer.position()),
                                    Arrays.copyOf(buffer.array(), buffer.position()), "at " + offset);
                        }
                    }
                    return null;
                }));
            }
            // and one handle alternating between two streams in the same file
            try (FileChannel channel = FileChannel.open(mounted.path("big.bin"))) {
                ByteBuffer buffer = ByteBuffer.allocate(chunk);
                int a = 0;
                int b = big.length / 2;
                for (int i = 0; i < 16; i++) {
                    int offset = i % 2 == 0 ? a : b;
                    buffer.clear();
                    int n = channel.read(buffer, offset);
                    assertArrayEquals(Arrays.copyOfRange(big, offset, offset + n), Arrays.copyOf(buffer.array(), n));
                    if (i % 2 == 0) {
                        a += n;
                    } else {
                        b += n;
                    }
                }
            }
            for (Future<?> result : results) {
                result.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void contentSurvivesARemount() throws IOException {
        byte[] data = Bytes.random(5, 3 * MIB + 5);
        Files.write(mounted.path("kept.bin"), data);
        mounted.remount();
        assertEquals(Bytes.sha256(data), Bytes.sha256(mounted.path("kept.bin")));
        assertEquals(Bytes.sha256(data), Bytes.sha256(server.get(volume, "kept.bin").orElseThrow()));
    }

    private static List<String> keysUnder(String prefix) {
        return server.keys(volume).stream().filter(k -> k.startsWith(prefix)).sorted().toList();
    }

    private static List<Path> stagingFiles() throws IOException {
        Path staging = base.resolve("staging");
        if (!Files.exists(staging)) {
            return List.of();
        }
        try (var files = Files.list(staging)) {
            return files.toList();
        }
    }
}
