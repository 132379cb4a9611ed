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
        assertEquals(65_536, parsed.chunkSize());
        assertEquals(4, parsed.chunkCrcs().length);
        assertEquals(PageFile.crc(data.duplicate().position(196_608)), parsed.chunkCrcs()[3]);
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
        assertEquals(65_536, PageFile.chunkSize(1 << 20));
        assertEquals(4096, PageFile.chunkSize(4096));
        assertEquals(65_536, PageFile.chunkSize(64 << 20));
    }
}
