package io.strata.core.cache;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class PageFileTest {
    final PageId id = new PageId("volume/42", "1234-1700000000000000000", 7, 1 << 20);

    ByteBuffer data(int length) {
        byte[] bytes = new byte[length];
        new Random(3).nextBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    @Test
    void aHeaderParsesBackToThePageAndItsChunkChecksums() {
        ByteBuffer data = data(200_000);
        ByteBuffer header = PageFile.header(id, data);
        assertEquals(PageFile.headerLength(id, 200_000), header.remaining());
        PageFile.Header parsed = PageFile.parse(header);
        assertNotNull(parsed);
        assertEquals(id, parsed.id());
        assertEquals(200_000, parsed.dataLength());
        assertEquals(4096, parsed.chunkSize());
        assertEquals(49, parsed.chunkCrcs().length);
        assertEquals(PageFile.crc(data.duplicate().position(196_608)), parsed.chunkCrcs()[48]);
    }

    @Test
    void chunkChecksumsTakenPieceByPieceAreThoseOfEachChunk() {
        ByteBuffer data = data(50_000);
        ByteBuffer direct = ByteBuffer.allocateDirect(data.remaining()).put(data.duplicate()).flip();
        PageFile.ChunkSums sums = new PageFile.ChunkSums(50_000, 4096);
        int at = 0;
        for (int piece : new int[] {1, 4095, 4096, 10_000, 3, 31_805}) { // across, on and inside chunk boundaries
            sums.update(direct.duplicate().position(at).limit(at + piece));
            at += piece;
        }
        assertEquals(50_000, at);
        int[] crcs = sums.finish();
        assertEquals(13, crcs.length);
        for (int c = 0; c < crcs.length; c++) {
            int from = c * 4096;
            assertEquals(PageFile.crc(data.duplicate().position(from).limit(Math.min(50_000, from + 4096))), crcs[c],
                    "chunk " + c);
        }
        assertEquals(PageFile.header(id, data), PageFile.header(id, 50_000, 4096, crcs));
    }

    @Test
    void theHeaderIsPaddedSoThePageStartsOnABlock() {
        for (int length : new int[] {0, 1000, 200_000, 1 << 20}) {
            ByteBuffer header = PageFile.header(id, data(length));
            assertEquals(0, header.remaining() % PageFile.ALIGNMENT, "page of " + length + " bytes");
            assertEquals(length, PageFile.parse(header).dataLength());
        }
    }

    @Test
    void aFormatOneHeaderWithoutPaddingStillParses() {
        ByteBuffer data = data(200_000);
        ByteBuffer header = formatOne(id, data);
        assertEquals(40 + id.fileKey().length() + id.version().length() + 4 * 4 + 4, header.remaining());
        PageFile.Header parsed = PageFile.parse(header);
        assertNotNull(parsed);
        assertEquals(id, parsed.id());
        assertEquals(header.remaining(), parsed.headerLength());
        assertEquals(PageFile.crc(data.duplicate().position(196_608)), parsed.chunkCrcs()[3]);
    }

    @Test
    void aFormatOneHeaderWithPaddingIsRejected() {
        ByteBuffer padded = PageFile.header(id, data(1000));
        padded.putShort(8, (short) 1);
        padded.putInt(padded.limit() - 4, PageFile.crc(padded.duplicate().limit(padded.limit() - 4)));
        assertNull(PageFile.parse(padded));
    }

    /** The header an earlier Strata wrote for {@code data} as page {@code id}: format 1, with no padding, 64 KiB chunks. */
    static ByteBuffer formatOne(PageId id, ByteBuffer data) {
        int chunk = Math.min(64 << 10, id.pageSize()); // format 1's chunks
        ByteBuffer padded = PageFile.header(id, data, chunk);
        int chunks = (data.remaining() + chunk - 1) / chunk;
        int length = 40 + id.fileKey().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                + id.version().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 4 * chunks + 4;
        ByteBuffer h = ByteBuffer.allocate(length).put(padded.duplicate().limit(length - 4));
        h.putShort(8, (short) 1).putInt(12, length);
        h.putInt(length - 4, PageFile.crc(h.duplicate().flip()));
        return h.clear();
    }

    @Test
    void anyChangedHeaderByteIsRejected() {
        ByteBuffer header = PageFile.header(id, data(1000));
        for (int i = 0; i < header.remaining(); i++) {
            ByteBuffer copy = ByteBuffer.allocate(header.remaining()).put(header.duplicate()).flip();
            copy.put(i, (byte) (copy.get(i) ^ 1));
            assertNull(PageFile.parse(copy), "byte " + i);
        }
    }

    @Test
    void aTruncatedHeaderIsRejected() {
        ByteBuffer header = PageFile.header(id, data(1000));
        assertNull(PageFile.parse(header.duplicate().limit(header.limit() - 1)));
        assertNull(PageFile.parse(ByteBuffer.allocate(0)));
    }

    @Test
    void largePagesUseLargerChunksToBoundTheHeader() {
        assertEquals(4096, PageFile.chunkSize(1 << 20));
        assertEquals(4096, PageFile.chunkSize(4 << 20));
        assertEquals(4096, PageFile.chunkSize(4096));
        assertEquals(65_536, PageFile.chunkSize(64 << 20));
    }
}
