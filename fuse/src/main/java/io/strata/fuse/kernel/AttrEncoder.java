package io.strata.fuse.kernel;

import io.strata.meta.Inode;

import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * Writes inodes as the kernel's {@code fuse_attr}, {@code fuse_attr_out} and
 * {@code fuse_entry_out}, with the mount's cache timeouts and its uid/gid/umask overrides.
 */
final class AttrEncoder {
    static final int ATTR_SIZE = 88;
    static final int ENTRY_OUT_SIZE = 40 + ATTR_SIZE;
    static final int ATTR_OUT_SIZE = 16 + ATTR_SIZE;
    private static final int BLOCK_SIZE = 4096;

    private final long entrySeconds;
    private final int entryNanos;
    private final long attrSeconds;
    private final int attrNanos;
    private final long negativeSeconds;
    private final int negativeNanos;
    private final Integer uid;
    private final Integer gid;
    private final int umask;

    AttrEncoder(Duration entryTimeout, Duration attrTimeout, Duration negativeTimeout, Integer uid, Integer gid,
                Integer umask) {
        this.entrySeconds = entryTimeout.getSeconds();
        this.entryNanos = entryTimeout.getNano();
        this.attrSeconds = attrTimeout.getSeconds();
        this.attrNanos = attrTimeout.getNano();
        this.negativeSeconds = negativeTimeout.getSeconds();
        this.negativeNanos = negativeTimeout.getNano();
        this.uid = uid;
        this.gid = gid;
        this.umask = umask == null ? 0 : umask;
    }

    /** Whether a name found missing is cached by the kernel (as an entry with node id 0). */
    boolean cachesNegativeEntries() {
        return negativeSeconds > 0 || negativeNanos > 0;
    }

    void entryOut(ByteBuffer out, Inode inode) {
        out.putLong(inode.ino());
        out.putLong(0); // generation: inode numbers are never reused within a volume
        out.putLong(entrySeconds);
        out.putLong(attrSeconds);
        out.putInt(entryNanos);
        out.putInt(attrNanos);
        attr(out, inode);
    }

    /** A negative entry: the name does not exist, cached for the negative timeout. */
    void negativeEntryOut(ByteBuffer out) {
        out.putLong(0);
        out.putLong(0);
        out.putLong(negativeSeconds);
        out.putLong(0);
        out.putInt(negativeNanos);
        out.putInt(0);
        for (int i = 0; i < ATTR_SIZE; i += 8) {
            out.putLong(0);
        }
    }

    void attrOut(ByteBuffer out, Inode inode) {
        out.putLong(attrSeconds);
        out.putInt(attrNanos);
        out.putInt(0);
        attr(out, inode);
    }

    private void attr(ByteBuffer out, Inode inode) {
        out.putLong(inode.ino());
        out.putLong(inode.size());
        out.putLong((inode.size() + 511) / 512);
        out.putLong(Math.floorDiv(inode.atimeNs(), 1_000_000_000L));
        out.putLong(Math.floorDiv(inode.mtimeNs(), 1_000_000_000L));
        out.putLong(Math.floorDiv(inode.ctimeNs(), 1_000_000_000L));
        out.putInt((int) Math.floorMod(inode.atimeNs(), 1_000_000_000L));
        out.putInt((int) Math.floorMod(inode.mtimeNs(), 1_000_000_000L));
        out.putInt((int) Math.floorMod(inode.ctimeNs(), 1_000_000_000L));
        out.putInt(inode.type().modeBits() | (inode.mode() & ~umask));
        out.putInt(inode.nlink());
        out.putInt(uid != null ? uid : inode.uid());
        out.putInt(gid != null ? gid : inode.gid());
        out.putInt((int) inode.rdev());
        out.putInt(BLOCK_SIZE);
        out.putInt(0);
    }
}
