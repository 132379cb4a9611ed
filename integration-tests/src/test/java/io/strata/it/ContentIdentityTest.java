package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What is read back is byte for byte what was written: the SHA-256 of the content read through
 * the mount and of the file in the source directory equal the digest of the reference data the
 * test wrote. Each test reads through the mount twice: at once (the kernel's page cache may
 * answer) and after a remount (a fresh page cache, so every byte comes through Strata).
 */
class ContentIdentityTest {
    private static final int MIB = 1 << 20;

    @TempDir
    static Path base;
    static MountedVolume volume;

    private String dir;

    @BeforeAll
    static void mount() throws IOException {
        volume = MountedVolume.under(base).mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (volume != null) {
            volume.close();
        }
    }

    @BeforeEach
    void testDirectory(TestInfo test) throws IOException {
        dir = test.getTestMethod().orElseThrow().getName() + "-" + Math.abs(test.getDisplayName().hashCode());
        volume.dir(dir);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 4095, 4096, 4097, MIB + 1})
    void sequentiallyWrittenFileReadsBackIdentically(int size) throws IOException {
        byte[] data = Bytes.random(size, size);
        Files.write(volume.path(dir + "/f"), data);
        assertIdentical(dir + "/f", Bytes.sha256(data), size);
    }

    @Test
    void hundredMebibytesStreamedReadBackIdentically() throws IOException {
        MessageDigest reference = Bytes.sha256();
        Random random = new Random(100);
        byte[] chunk = new byte[MIB];
        try (OutputStream out = Files.newOutputStream(volume.path(dir + "/big"), StandardOpenOption.CREATE_NEW)) {
            for (int i = 0; i < 100; i++) {
                random.nextBytes(chunk);
                reference.update(chunk);
                out.write(chunk);
            }
        }
        assertIdentical(dir + "/big", HexFormat.of().formatHex(reference.digest()), 100L * MIB);
    }

    @Test
    void randomOffsetWritesReadBackIdentically() throws IOException {
        Random random = new Random(8);
        byte[] data = new byte[8 * MIB];
        random.nextBytes(data);
        List<int[]> chunks = new ArrayList<>(); // {offset, length}
        for (int offset = 0; offset < data.length; ) {
            int length = Math.min(1 + random.nextInt(64 * 1024), data.length - offset);
            chunks.add(new int[] {offset, length});
            offset += length;
        }
        Collections.shuffle(chunks, random);
        try (FileChannel channel = FileChannel.open(volume.path(dir + "/f"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            for (int[] chunk : chunks) {
                writeFully(channel, ByteBuffer.wrap(data, chunk[0], chunk[1]), chunk[0]);
            }
        }
        assertIdentical(dir + "/f", Bytes.sha256(data), data.length);
    }

    @Test
    void unalignedOverwritesOfAnExistingFileReadBackIdentically() throws IOException {
        byte[] original = Bytes.random(4, 4 * MIB);
        Files.write(volume.path(dir + "/f"), original);
        volume.remount(); // overwrite a file that is in the metastore and the source, not one still open

        int last = (original.length - 13 - 1) / 4097; // the last chunk starts before the old end
        byte[] model = java.util.Arrays.copyOf(original, last * 4097 + 13 + 4097);
        try (FileChannel channel = FileChannel.open(volume.path(dir + "/f"), StandardOpenOption.WRITE)) {
            for (int k = 0; k <= last; k++) {
                byte[] chunk = Bytes.random(1000 + k, 4097);
                long offset = (long) k * 4097 + 13;
                writeFully(channel, ByteBuffer.wrap(chunk), offset);
                System.arraycopy(chunk, 0, model, (int) offset, chunk.length);
            }
        }
        assertIdentical(dir + "/f", Bytes.sha256(model), model.length);
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long offset) throws IOException {
        long position = offset;
        while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
        }
    }

    /** The source file, the mount now, and the mount after a remount all hold {@code sha256}. */
    private static void assertIdentical(String relative, String sha256, long size) throws IOException {
        assertEquals(size, Files.size(volume.sourcePath(relative)), "size in the source");
        assertEquals(sha256, Bytes.sha256(volume.sourcePath(relative)), "content in the source");
        assertEquals(size, Files.size(volume.path(relative)), "size in the mount");
        assertEquals(sha256, Bytes.sha256(volume.path(relative)), "content through the mount");
        volume.remount();
        assertEquals(size, Files.size(volume.path(relative)), "size in the mount after remount");
        assertEquals(sha256, Bytes.sha256(volume.path(relative)), "content through the mount after remount");
    }
}
