package io.strata.fuse.kernel;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The structs the kernel reads, at the offsets of linux/fuse.h. */
class AttrEncoderTest {
    private static final Inode FILE = new Inode(42, InodeType.FILE, 0640, 1000, 100, 1_500_000_000_123_456_789L,
            1_600_000_000_000_000_001L, 1_700_000_000_999_999_999L, 2, 10_000, 0, 1, "f", null, Inode.NEVER_SYNCED);

    private final ByteBuffer out = ByteBuffer.allocate(256).order(ByteOrder.nativeOrder());

    @Test
    void entryOutCarriesNodeIdTimeoutsAndAttributesAtTheirOffsets() {
        new AttrEncoder(Duration.ofMillis(1500), Duration.ofSeconds(2), Duration.ZERO, null, null, null)
                .entryOut(out, FILE);

        assertEquals(AttrEncoder.ENTRY_OUT_SIZE, out.position());
        assertEquals(42, out.getLong(0), "nodeid");
        assertEquals(0, out.getLong(8), "generation");
        assertEquals(1, out.getLong(16), "entry_valid");
        assertEquals(2, out.getLong(24), "attr_valid");
        assertEquals(500_000_000, out.getInt(32), "entry_valid_nsec");
        assertEquals(0, out.getInt(36), "attr_valid_nsec");
        int attr = 40;
        assertEquals(42, out.getLong(attr), "ino");
        assertEquals(10_000, out.getLong(attr + 8), "size");
        assertEquals(20, out.getLong(attr + 16), "blocks of 512 bytes");
        assertEquals(1_500_000_000L, out.getLong(attr + 24), "atime");
        assertEquals(1_600_000_000L, out.getLong(attr + 32), "mtime");
        assertEquals(1_700_000_000L, out.getLong(attr + 40), "ctime");
        assertEquals(123_456_789, out.getInt(attr + 48), "atimensec");
        assertEquals(1, out.getInt(attr + 52), "mtimensec");
        assertEquals(999_999_999, out.getInt(attr + 56), "ctimensec");
        assertEquals(0100640, out.getInt(attr + 60), "mode with type bits");
        assertEquals(2, out.getInt(attr + 64), "nlink");
        assertEquals(1000, out.getInt(attr + 68), "uid");
        assertEquals(100, out.getInt(attr + 72), "gid");
        assertEquals(4096, out.getInt(attr + 80), "blksize");
    }

    @Test
    void attrOutStartsWithItsTimeout() {
        new AttrEncoder(Duration.ZERO, Duration.ofMillis(250), Duration.ZERO, null, null, null).attrOut(out, FILE);

        assertEquals(AttrEncoder.ATTR_OUT_SIZE, out.position());
        assertEquals(0, out.getLong(0));
        assertEquals(250_000_000, out.getInt(8));
        assertEquals(42, out.getLong(16), "attr.ino");
    }

    @Test
    void uidGidAndUmaskOptionsOverrideWhatIsStored() {
        new AttrEncoder(Duration.ZERO, Duration.ZERO, Duration.ZERO, 7, 8, 0027).attrOut(out, FILE);

        assertEquals(0100640 & ~0027, out.getInt(16 + 60));
        assertEquals(7, out.getInt(16 + 68));
        assertEquals(8, out.getInt(16 + 72));
    }

    @Test
    void aNegativeEntryHasNodeIdZeroAndTheNegativeTimeout() {
        AttrEncoder encoder = new AttrEncoder(Duration.ZERO, Duration.ZERO, Duration.ofMillis(2500), null, null,
                null);
        encoder.negativeEntryOut(out);

        assertEquals(AttrEncoder.ENTRY_OUT_SIZE, out.position());
        assertEquals(0, out.getLong(0), "nodeid 0: the name does not exist");
        assertEquals(2, out.getLong(16));
        assertEquals(500_000_000, out.getInt(32));
        assertEquals(true, encoder.cachesNegativeEntries());
    }
}
