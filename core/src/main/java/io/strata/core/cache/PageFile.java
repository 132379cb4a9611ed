package io.strata.core.cache;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The format of one page file on disk: a checksummed header, then the page's bytes.
 *
 * <pre>
 * offset  size  field
 *      0     8  magic "STRPAGE\n"
 *      8     2  format version (2; format 1 is still read)
 *     10     2  reserved (0)
 *     12     4  header length H, in bytes, this field to the header CRC included
 *     16     4  page size
 *     20     4  data length D (at most the page size; less for a file's last page)
 *     24     8  page index
 *     32     4  chunk size C
 *     36     2  file key length K (UTF-8 bytes)
 *     38     2  version length V (UTF-8 bytes)
 *     40     K  file key
 *   40+K     V  version
 * 40+K+V  4*N  CRC32C of each data chunk of C bytes (the last may be shorter), N = ceil(D / C)
 *           ...  zeros, up to H - 4 (format 2)
 *  H - 4     4  CRC32C of header bytes [0, H - 4)
 *      H     D  the page's bytes
 * </pre>
 *
 * All integers are big-endian. A file is valid when its length is exactly H + D, the header CRC
 * matches, and it names the page its file name says it holds. Each data chunk's CRC is checked
 * whenever a read copies the chunk, and before the chunk is first lent unread ({@link
 * CheckedChunks}), so reading part of a page reads and verifies only the chunks it overlaps.
 *
 * <p>Format 2 pads the header to a multiple of {@link #ALIGNMENT} bytes, so that the page's bytes
 * start on a file system block: a page file can then be written with {@code O_DIRECT}, whose file
 * offsets and lengths must be block-aligned (the kernel copies nothing into its page cache). The
 * padding costs no disk space, as the header's block was allocated whole before. Format 1 files
 * (no padding) are still read.
 */
final class PageFile {
    static final byte[] MAGIC = "STRPAGE\n".getBytes(StandardCharsets.US_ASCII);
    static final int FORMAT_VERSION = 2;
    /** What format 2 pads its header to: the block size of the file systems direct writes are made on. */
    static final int ALIGNMENT = 4096;
    private static final int FIXED = 40;
    private static final int MAX_NAME = 4096;
    private static final int MAX_CHUNKS = 1024;
    /** Enough for the fixed fields, a file key and version of up to 4 KiB each, and 1024 chunk CRCs, padded. */
    static final int MAX_HEADER = headerLength(MAX_NAME, MAX_NAME, MAX_CHUNKS);
    /**
     * The checksummed unit, and so the least a read of a page reads from its file: the smallest
     * read the kernel sends. With 64 KiB chunks a 4 KiB random read read and checked 16 times its
     * bytes (docs/PERFORMANCE.md, twentieth round). Files of earlier Strata name their own chunk
     * size and are read as they are.
     */
    private static final int CHUNK = 4 << 10;

    /** A parsed, verified header. */
    record Header(PageId id, int headerLength, int dataLength, int chunkSize, int[] chunkCrcs) {
        long fileLength() {
            return (long) headerLength + dataLength;
        }
    }

    private PageFile() {}

    /** The chunk size for pages of {@code pageSize}: 4 KiB, larger for pages over 4 MiB (at most 1024 chunks). */
    static int chunkSize(int pageSize) {
        int chunk = CHUNK;
        while ((pageSize + chunk - 1) / chunk > MAX_CHUNKS) {
            chunk *= 2;
        }
        return Math.min(chunk, pageSize);
    }

    /** Whether {@code id} can be written in this format (its names fit the header). */
    static boolean fits(PageId id) {
        return utf8(id.fileKey()).length <= MAX_NAME && utf8(id.version()).length <= MAX_NAME;
    }

    /** The header for {@code data} (its remaining bytes) as page {@code id}; leaves data's position alone. */
    static ByteBuffer header(PageId id, ByteBuffer data) {
        return header(id, data, chunkSize(id.pageSize()));
    }

    /** The header with chunks of {@code chunk} bytes: what this or an earlier Strata writes. */
    static ByteBuffer header(PageId id, ByteBuffer data, int chunk) {
        ChunkSums sums = new ChunkSums(data.remaining(), chunk);
        sums.update(data);
        return header(id, data.remaining(), chunk, sums.finish());
    }

    /**
     * The header of page {@code id} holding {@code dataLength} bytes, whose chunks of {@code chunk}
     * bytes have the CRCs {@code chunkCrcs}.
     */
    static ByteBuffer header(PageId id, int dataLength, int chunk, int[] chunkCrcs) {
        byte[] key = utf8(id.fileKey());
        byte[] version = utf8(id.version());
        int chunks = (dataLength + chunk - 1) / chunk;
        if (chunkCrcs.length != chunks) {
            throw new IllegalArgumentException(chunkCrcs.length + " chunk CRCs for " + chunks + " chunks");
        }
        int headerLength = headerLength(key.length, version.length, chunks);
        ByteBuffer h = ByteBuffer.allocate(headerLength).order(ByteOrder.BIG_ENDIAN);
        h.put(MAGIC).putShort((short) FORMAT_VERSION).putShort((short) 0).putInt(headerLength)
                .putInt(id.pageSize()).putInt(dataLength).putLong(id.index()).putInt(chunk)
                .putShort((short) key.length).putShort((short) version.length).put(key).put(version);
        // One bulk copy, not a putInt per chunk: a loop here ran 256 times a page, and a fresh daemon
        // compiled it three times over (C1, then C2 twice, 131 ms) during its first cold read.
        h.asIntBuffer().put(chunkCrcs);
        h.position(headerLength - 4); // the padding: zeros, as allocated
        h.putInt(crc(h.duplicate().flip()));
        return h.flip();
    }

    /**
     * The CRC32C of each chunk of a page's data, taken as its bytes pass in order, in pieces of any
     * size. A writer checksums the bytes it is about to write, from its own (direct) staging buffer:
     * the JDK checksums a direct buffer in place, and copies a read-only heap buffer (what the page
     * store is handed) 4 KiB at a time into a new array first.
     */
    static final class ChunkSums {
        private final int chunk;
        private final int[] crcs;
        private final CRC32C crc = new CRC32C();
        private int done;
        private int inChunk;

        ChunkSums(int dataLength, int chunk) {
            this.chunk = chunk;
            this.crcs = new int[(dataLength + chunk - 1) / chunk];
        }

        /** Takes the next {@code piece} of the data (its remaining bytes; its position is left alone). */
        void update(ByteBuffer piece) {
            ByteBuffer view = piece.duplicate();
            int end = view.limit();
            while (view.hasRemaining()) {
                int n = Math.min(end - view.position(), chunk - inChunk);
                crc.update(view.limit(view.position() + n));
                view.limit(end);
                inChunk += n;
                if (inChunk == chunk) {
                    endChunk();
                }
            }
        }

        /** The chunks' CRCs, once all of the data has passed. */
        int[] finish() {
            if (inChunk > 0) {
                endChunk();
            }
            if (done != crcs.length) {
                throw new IllegalStateException(done + " of " + crcs.length + " chunks checksummed");
            }
            return crcs;
        }

        private void endChunk() {
            crcs[done++] = (int) crc.getValue();
            crc.reset();
            inChunk = 0;
        }
    }

    /**
     * Parses and verifies a header from {@code bytes} (the file's first bytes, at least the
     * header's length); null when it is not a valid header of this format.
     */
    static Header parse(ByteBuffer bytes) {
        ByteBuffer h = bytes.duplicate().order(ByteOrder.BIG_ENDIAN);
        int start = h.position();
        if (h.remaining() < FIXED + 4) {
            return null;
        }
        byte[] magic = new byte[MAGIC.length];
        h.get(magic);
        short format = h.getShort();
        if (!java.util.Arrays.equals(magic, MAGIC) || (format != 1 && format != FORMAT_VERSION)) {
            return null;
        }
        h.getShort();
        int headerLength = h.getInt();
        if (headerLength < FIXED + 4 || headerLength > MAX_HEADER || bytes.remaining() < headerLength) {
            return null;
        }
        ByteBuffer covered = bytes.duplicate().limit(start + headerLength - 4);
        int storedCrc = bytes.duplicate().order(ByteOrder.BIG_ENDIAN).getInt(start + headerLength - 4);
        if (crc(covered) != storedCrc) {
            return null;
        }
        int pageSize = h.getInt();
        int dataLength = h.getInt();
        long index = h.getLong();
        int chunk = h.getInt();
        int keyLength = h.getShort() & 0xffff;
        int versionLength = h.getShort() & 0xffff;
        if (pageSize <= 0 || dataLength < 0 || dataLength > pageSize || index < 0 || chunk <= 0) {
            return null;
        }
        int chunks = (dataLength + chunk - 1) / chunk;
        long unpadded = FIXED + keyLength + versionLength + 4L * chunks + 4;
        if ((format == 1 ? unpadded : aligned(unpadded)) != headerLength) {
            return null;
        }
        byte[] key = new byte[keyLength];
        byte[] version = new byte[versionLength];
        h.get(key).get(version);
        int[] crcs = new int[chunks];
        h.asIntBuffer().get(crcs);
        PageId id = new PageId(new String(key, StandardCharsets.UTF_8), new String(version, StandardCharsets.UTF_8),
                index, pageSize);
        return new Header(id, headerLength, dataLength, chunk, crcs);
    }

    /** The header length of page {@code id} holding {@code dataLength} bytes. */
    static int headerLength(PageId id, int dataLength) {
        int chunk = chunkSize(id.pageSize());
        int chunks = (dataLength + chunk - 1) / chunk;
        return headerLength(utf8(id.fileKey()).length, utf8(id.version()).length, chunks);
    }

    /** The fixed fields, the names, a CRC per chunk and the header's own CRC, padded to the alignment. */
    private static int headerLength(int keyBytes, int versionBytes, int chunks) {
        return aligned(FIXED + keyBytes + versionBytes + 4 * chunks + 4);
    }

    /** {@code length} rounded up to a multiple of {@link #ALIGNMENT}. */
    static int aligned(long length) {
        return Math.toIntExact((length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
    }

    /**
     * The CRC32C of {@code view}'s bytes [from, to), computed with {@code crc} (reset first), for
     * loops over a page's chunks that reuse one of each; leaves {@code view}'s position at {@code to}.
     */
    static int crc(CRC32C crc, ByteBuffer view, int from, int to) {
        crc.reset();
        crc.update(view.limit(to).position(from));
        return (int) crc.getValue();
    }

    static int crc(ByteBuffer bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate());
        return (int) crc.getValue();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
