package io.strata.core.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PageCacheWritesTest {
    @TempDir
    Path dir;

    @Test
    void writesEveryByteOfABufferLargerThanAPieceAtItsPosition() throws IOException {
        byte[] data = randomBytes(3 * PageCacheWrites.PIECE + 17);
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long end = PageCacheWrites.writeFully(channel, ByteBuffer.wrap(data), 5);
            assertEquals(5L + data.length, end);
        }
        byte[] read = Files.readAllBytes(file);
        assertArrayEquals(new byte[5], Arrays.copyOfRange(read, 0, 5));
        assertArrayEquals(data, Arrays.copyOfRange(read, 5, read.length));
    }

    @Test
    void writesADirectBufferFromItsPositionToItsLimitAndConsumesIt() throws IOException {
        byte[] data = randomBytes(PageCacheWrites.PIECE + 100);
        ByteBuffer src = ByteBuffer.allocateDirect(data.length + 20);
        src.position(10);
        src.put(data);
        src.position(10).limit(10 + data.length);
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            PageCacheWrites.writeFully(channel, src, 0);
        }
        assertEquals(src.limit(), src.position());
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @Test
    void anEmptyBufferWritesNothing() throws IOException {
        Path file = dir.resolve("f");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            assertEquals(7L, PageCacheWrites.writeFully(channel, ByteBuffer.allocate(0), 7));
        }
        assertEquals(0L, Files.size(file));
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }
}
