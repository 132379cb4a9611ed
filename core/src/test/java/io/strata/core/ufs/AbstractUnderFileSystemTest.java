package io.strata.core.ufs;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link UnderFileSystem} does, whatever is underneath: one subclass per engine,
 * supplying a fresh, empty storage per test through {@link #createUfs()}.
 *
 * <p>Published in core's test jar, so engines in other modules reuse it. Claims that only hold
 * for one engine (modes, symbolic links in the source) belong in that engine's own tests.
 */
public abstract class AbstractUnderFileSystemTest {
    private static final long DAY_NS = TimeUnit.DAYS.toNanos(1);

    protected UnderFileSystem ufs;

    /** A new, empty under storage, closed by the suite after each test. */
    protected abstract UnderFileSystem createUfs() throws Exception;

    @BeforeEach
    final void createStorage() throws Exception {
        ufs = createUfs();
    }

    @AfterEach
    final void closeStorage() throws IOException {
        if (ufs != null) {
            ufs.close();
        }
    }

    @Test
    void statusOfMissingPathIsEmpty() throws IOException {
        assertEquals(Optional.empty(), ufs.status("missing"));
        assertEquals(Optional.empty(), ufs.status("missing/below/missing"));
    }

    @Test
    void rootIsADirectory() throws IOException {
        UfsStatus root = ufs.status("").orElseThrow();
        assertTrue(root.directory());
        assertNull(root.version());
    }

    @Test
    void createThenReadBackBytes() throws IOException {
        byte[] data = randomBytes(3 * 1024 * 1024 + 17, 1);
        write("data.bin", data);

        assertArrayEquals(data, read("data.bin"));
        UfsStatus status = ufs.status("data.bin").orElseThrow();
        assertEquals("data.bin", status.name());
        assertFalse(status.directory());
        assertEquals(data.length, status.size());
        assertNotNull(status.version());
    }

    @Test
    void statusReportsModificationTimeInNanoseconds() throws IOException {
        write("f", bytes("x"));
        long mtimeNs = ufs.status("f").orElseThrow().mtimeNs();
        long nowNs = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        assertTrue(Math.abs(nowNs - mtimeNs) < DAY_NS, "mtime " + mtimeNs + " is not near now " + nowNs);
    }

    @Test
    void readAtEndOfFileReturnsMinusOne() throws IOException {
        write("f", bytes("abc"));
        try (UfsFile file = ufs.open("f", false)) {
            assertEquals(3, file.size());
            ByteBuffer buffer = ByteBuffer.allocate(10);
            assertEquals(2, file.read(buffer, 1));
            assertEquals("bc", new String(buffer.array(), 0, 2, StandardCharsets.UTF_8));
            assertEquals(-1, file.read(ByteBuffer.allocate(10), 3));
            assertEquals(-1, file.read(ByteBuffer.allocate(10), 1000));
        }
    }

    @Test
    void createReplacesExistingFile() throws IOException {
        write("f", bytes("a long first version"));
        write("f", bytes("short"));
        assertArrayEquals(bytes("short"), read("f"));
        assertEquals(5, ufs.status("f").orElseThrow().size());
    }

    @Test
    void openMissingFileFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> ufs.open("missing", false));
        assertFsError(FsError.ENOENT, () -> ufs.open("missing", true));
    }

    @Test
    void positionalWritesAtRandomOffsetsMatchAReferenceArray() throws IOException {
        long seed = 42;
        Random random = new Random(seed);
        byte[] model = new byte[1 << 20];
        int modelSize = 0;
        try (UfsFile file = ufs.create("random")) {
            for (int op = 0; op < 300; op++) {
                int offset = random.nextInt(Math.min(modelSize + 64 * 1024, model.length - 16 * 1024));
                if (random.nextInt(4) == 0) {
                    int length = 1 + random.nextInt(16 * 1024);
                    ByteBuffer buffer = ByteBuffer.allocate(length);
                    int n = file.read(buffer, offset);
                    int expected = offset >= modelSize ? -1 : Math.min(length, modelSize - offset);
                    assertEquals(expected, n, "read length at op " + op + ", seed " + seed);
                    if (n > 0) {
                        assertArrayEquals(Arrays.copyOfRange(model, offset, offset + n),
                                Arrays.copyOf(buffer.array(), n), "read at op " + op + ", seed " + seed);
                    }
                } else {
                    byte[] chunk = randomBytes(1 + random.nextInt(16 * 1024), random.nextLong());
                    file.write(ByteBuffer.wrap(chunk), offset);
                    System.arraycopy(chunk, 0, model, offset, chunk.length);
                    modelSize = Math.max(modelSize, offset + chunk.length);
                }
                assertEquals(modelSize, file.size(), "size at op " + op + ", seed " + seed);
            }
            file.force();
        }
        assertArrayEquals(Arrays.copyOf(model, modelSize), read("random"), "seed " + seed);
    }

    @Test
    void writeFromAnOffsetInsideTheBufferWritesOnlyTheRemainingBytes() throws IOException {
        try (UfsFile file = ufs.create("f")) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes("0123456789"));
            buffer.position(4).limit(8);
            file.write(buffer, 0);
            assertFalse(buffer.hasRemaining());
        }
        assertArrayEquals(bytes("4567"), read("f"));
    }

    @Test
    void truncateShrinksAndExtendsWithZeros() throws IOException {
        byte[] data = randomBytes(100, 7);
        try (UfsFile file = ufs.create("f")) {
            file.write(ByteBuffer.wrap(data), 0);
            file.truncate(40);
            assertEquals(40, file.size());
            file.truncate(100);
            assertEquals(100, file.size());
        }
        byte[] expected = new byte[100];
        System.arraycopy(data, 0, expected, 0, 40);
        assertArrayEquals(expected, read("f"));
        assertEquals(100, ufs.status("f").orElseThrow().size());
    }

    @Test
    void writePastTheEndLeavesZerosInTheGap() throws IOException {
        try (UfsFile file = ufs.create("f")) {
            file.write(ByteBuffer.wrap(bytes("end")), 10);
        }
        byte[] expected = new byte[13];
        System.arraycopy(bytes("end"), 0, expected, 10, 3);
        assertArrayEquals(expected, read("f"));
    }

    @Test
    void listStreamsAllChildrenIncludingDirectories() throws IOException {
        ufs.mkdir("big");
        Set<String> expectedFiles = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String name = "file-" + i;
            write("big/" + name, bytes(Integer.toString(i)));
            expectedFiles.add(name);
        }
        Set<String> expectedDirs = Set.of("dir-a", "dir-b", "dir-c");
        for (String dir : expectedDirs) {
            ufs.mkdir("big/" + dir);
            write("big/" + dir + "/nested", bytes("not listed"));
        }

        Map<String, UfsStatus> listed = list("big");

        assertEquals(1003, listed.size());
        for (String name : expectedFiles) {
            UfsStatus status = listed.get(name);
            assertNotNull(status, name);
            assertFalse(status.directory(), name);
            assertEquals(name.substring("file-".length()).length(), status.size(), name);
        }
        for (String dir : expectedDirs) {
            assertTrue(listed.get(dir).directory(), dir);
        }
    }

    @Test
    void listOfEmptyDirectoryIsEmpty() throws IOException {
        ufs.mkdir("empty");
        assertEquals(Map.of(), list("empty"));
    }

    @Test
    void listOfMissingDirectoryFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> ufs.list("missing", status -> {}));
    }

    @Test
    void renameFileReplacesTarget() throws IOException {
        write("src", bytes("new"));
        write("dst", bytes("old content"));

        ufs.rename("src", "dst");

        assertEquals(Optional.empty(), ufs.status("src"));
        assertArrayEquals(bytes("new"), read("dst"));
    }

    @Test
    void renameFileIntoAnotherDirectory() throws IOException {
        ufs.mkdir("a");
        ufs.mkdir("b");
        write("a/f", bytes("data"));

        ufs.rename("a/f", "b/g");

        assertEquals(Map.of(), list("a"));
        assertEquals(Set.of("g"), list("b").keySet());
        assertArrayEquals(bytes("data"), read("b/g"));
    }

    @Test
    void renameDirectoryMovesSubtree() throws IOException {
        ufs.mkdir("src");
        ufs.mkdir("src/sub");
        write("src/top", bytes("top"));
        write("src/sub/leaf", bytes("leaf"));

        ufs.rename("src", "moved");

        assertEquals(Optional.empty(), ufs.status("src"));
        assertEquals(Optional.empty(), ufs.status("src/sub/leaf"));
        assertTrue(ufs.status("moved").orElseThrow().directory());
        assertEquals(Set.of("top", "sub"), list("moved").keySet());
        assertArrayEquals(bytes("top"), read("moved/top"));
        assertArrayEquals(bytes("leaf"), read("moved/sub/leaf"));
    }

    @Test
    void renameOfMissingSourceFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> ufs.rename("missing", "dst"));
    }

    @Test
    void deleteFileRemovesIt() throws IOException {
        write("f", bytes("x"));
        ufs.deleteFile("f");
        assertEquals(Optional.empty(), ufs.status("f"));
        assertEquals(Map.of(), list(""));
    }

    @Test
    void deleteOfMissingFileIsNotAnError() throws IOException {
        ufs.deleteFile("missing");
    }

    @Test
    void deleteDirectoryRemovesAnEmptyDirectory() throws IOException {
        ufs.mkdir("d");
        ufs.deleteDirectory("d");
        assertEquals(Optional.empty(), ufs.status("d"));
    }

    @Test
    void deleteOfMissingDirectoryIsNotAnError() throws IOException {
        ufs.deleteDirectory("missing");
    }

    @Test
    void deleteDirectoryThatIsNotEmptyFailsWithEnotempty() throws IOException {
        ufs.mkdir("d");
        write("d/f", bytes("x"));

        assertFsError(FsError.ENOTEMPTY, () -> ufs.deleteDirectory("d"));
        assertTrue(ufs.status("d/f").isPresent());
    }

    @Test
    void mkdirWithMissingParentFailsWithEnoent() {
        assertFsError(FsError.ENOENT, () -> ufs.mkdir("missing/child"));
    }

    @Test
    void mkdirOfExistingDirectoryIsNotAnError() throws IOException {
        ufs.mkdir("d");
        ufs.mkdir("d");
        assertTrue(ufs.status("d").orElseThrow().directory());
    }

    @Test
    void directoriesHaveNoVersion() throws IOException {
        ufs.mkdir("d");
        UfsStatus status = ufs.status("d").orElseThrow();
        assertTrue(status.directory());
        assertNull(status.version());
        assertEquals("d", status.name());
    }

    @Test
    void versionChangesWhenContentChanges() throws IOException {
        write("f", bytes("hello"));
        String first = ufs.status("f").orElseThrow().version();

        // Same size, immediately: a version built from a coarse clock must still change.
        try (UfsFile file = ufs.open("f", true)) {
            file.write(ByteBuffer.wrap(bytes("j")), 0);
            file.force();
        }
        String second = ufs.status("f").orElseThrow().version();
        assertNotEquals(first, second);

        write("f", bytes("hello, longer"));
        String third = ufs.status("f").orElseThrow().version();
        assertNotEquals(second, third);
        assertNotEquals(first, third);
    }

    @Test
    void versionDoesNotChangeWithoutWrites() throws IOException {
        write("f", bytes("hello"));
        String before = ufs.status("f").orElseThrow().version();
        try (UfsFile file = ufs.open("f", true)) {
            assertEquals(before, file.version());
            file.read(ByteBuffer.allocate(5), 0);
        }
        assertEquals(before, ufs.status("f").orElseThrow().version());
    }

    @Test
    void versionOfAFileMatchesItsStatusAfterForce() throws IOException {
        String version;
        try (UfsFile file = ufs.create("f")) {
            file.write(ByteBuffer.wrap(bytes("content")), 0);
            file.force();
            version = file.version();
        }
        assertEquals(version, ufs.status("f").orElseThrow().version());
    }

    @Test
    void concurrentPositionalWritesToDisjointRangesAllLand() throws Exception {
        int threads = 4;
        int chunk = 4096;
        int chunksPerThread = 64;
        int rangeBytes = chunk * chunksPerThread;
        byte[] expected = randomBytes(threads * rangeBytes, 3);
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try (UfsFile file = ufs.create("shared")) {
            List<Callable<Void>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t * chunksPerThread;
                long order = t;
                writers.add(() -> {
                    List<Integer> chunks = new ArrayList<>();
                    for (int c = first; c < first + chunksPerThread; c++) {
                        chunks.add(c);
                    }
                    Collections.shuffle(chunks, new Random(order));
                    start.await();
                    for (int c : chunks) {
                        file.write(ByteBuffer.wrap(expected, c * chunk, chunk), (long) c * chunk);
                    }
                    return null;
                });
            }
            for (Future<Void> result : executor.invokeAll(writers, 1, TimeUnit.MINUTES)) {
                result.get();
            }
            file.force();
        } finally {
            executor.shutdownNow();
        }
        assertArrayEquals(expected, read("shared"));
    }

    @Test
    void capacityIsConsistentWhenReported() throws IOException {
        Optional<UnderFileSystem.Capacity> capacity = ufs.capacity();
        capacity.ifPresent(c -> {
            assertTrue(c.totalBytes() > 0, c.toString());
            assertTrue(c.freeBytes() >= 0 && c.freeBytes() <= c.totalBytes(), c.toString());
        });
    }

    @Test
    void uriHasASchemeAndNoTrailingSlash() {
        assertNotNull(ufs.uri().getScheme());
        assertFalse(ufs.uri().getPath().length() > 1 && ufs.uri().getPath().endsWith("/"), ufs.uri().toString());
    }

    // ---- helpers, for subclasses too ----

    /** Creates (or replaces) {@code path} with {@code data}. */
    protected void write(String path, byte[] data) throws IOException {
        try (UfsFile file = ufs.create(path)) {
            file.write(ByteBuffer.wrap(data), 0);
            file.force();
        }
    }

    /** The whole content of {@code path}, read in pieces smaller than the file. */
    protected byte[] read(String path) throws IOException {
        try (UfsFile file = ufs.open(path, false)) {
            long size = file.size();
            assertTrue(size <= Integer.MAX_VALUE, "too large to read in a test: " + size);
            byte[] data = new byte[(int) size];
            int offset = 0;
            while (offset < data.length) {
                int n = file.read(ByteBuffer.wrap(data, offset, Math.min(64 * 1024, data.length - offset)), offset);
                assertTrue(n > 0, "unexpected end of file at " + offset + " of " + size);
                offset += n;
            }
            assertEquals(-1, file.read(ByteBuffer.allocate(1), size));
            return data;
        }
    }

    /** The children of {@code dir} by name, failing on a name listed twice. */
    protected Map<String, UfsStatus> list(String dir) throws IOException {
        Map<String, UfsStatus> children = new HashMap<>();
        ufs.list(dir, status -> assertNull(children.put(status.name(), status), "listed twice: " + status.name()));
        return children;
    }

    protected static FsException assertFsError(FsError expected, Executable executable) {
        FsException e = assertThrows(FsException.class, executable);
        assertEquals(expected, e.error(), e.getMessage());
        return e;
    }

    protected static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    protected static byte[] randomBytes(int length, long seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }
}
