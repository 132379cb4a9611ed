package io.strata.meta.redis;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The encodings of the Redis metastore's values (see the header of {@link RedisKeys}): an inode
 * as one packed value, a directory entry as a type letter and an inode number.
 */
final class RedisCodec {
    private RedisCodec() {}

    /** ls's letter for a type, as stored first in i&lt;ino&gt; and in entries. */
    static char letter(InodeType type) {
        return switch (type) {
            case FILE -> 'f';
            case DIRECTORY -> 'd';
            case SYMLINK -> 'l';
            case FIFO -> 'p';
            case SOCKET -> 's';
            case CHAR_DEVICE -> 'c';
            case BLOCK_DEVICE -> 'b';
        };
    }

    static InodeType type(char letter) throws IOException {
        return switch (letter) {
            case 'f' -> InodeType.FILE;
            case 'd' -> InodeType.DIRECTORY;
            case 'l' -> InodeType.SYMLINK;
            case 'p' -> InodeType.FIFO;
            case 's' -> InodeType.SOCKET;
            case 'c' -> InodeType.CHAR_DEVICE;
            case 'b' -> InodeType.BLOCK_DEVICE;
            default -> throw new IOException("corrupt metastore: unknown type letter '" + letter + "'");
        };
    }

    // The packed value of i<ino> (layout in RedisKeys' header): offsets from its start.
    static final int TYPE = 0;
    static final int FLAGS = 1;
    static final int MODE = 2;
    static final int UID = 6;
    static final int GID = 10;
    static final int NLINK = 14;
    static final int SIZE = 18;
    static final int RDEV = 26;
    static final int ATIME = 34;
    static final int MTIME = 42;
    static final int CTIME = 50;
    static final int PARENT = 58;
    static final int SYNCED = 66;
    /** The name's length (4 bytes), the name, the UFS version's length (4 bytes), the version, the target. */
    static final int NAME = 74;
    /** A flag: the inode has an x&lt;ino&gt; hash (any extended attribute). */
    static final int HAS_XATTRS = 1;
    /** A flag: the inode has a UFS version (an empty one is a version too). */
    static final int HAS_UFS = 2;

    /** An inode packed as i&lt;ino&gt;'s value; {@code symlinkTarget} null for all but symlinks. */
    static byte[] pack(Inode inode, String symlinkTarget, boolean hasXattrs) {
        byte[] name = RedisKeys.bytes(inode.name());
        byte[] ufs = inode.ufsVersion() == null ? new byte[0] : RedisKeys.bytes(inode.ufsVersion());
        byte[] target = symlinkTarget == null ? new byte[0] : RedisKeys.bytes(symlinkTarget);
        ByteBuffer packed = ByteBuffer.allocate(NAME + 8 + name.length + ufs.length + target.length);
        packed.put((byte) letter(inode.type()))
                .put((byte) ((hasXattrs ? HAS_XATTRS : 0) | (inode.ufsVersion() != null ? HAS_UFS : 0)))
                .putInt(inode.mode()).putInt(inode.uid()).putInt(inode.gid()).putInt(inode.nlink())
                .putLong(inode.size()).putLong(inode.rdev()).putLong(inode.atimeNs()).putLong(inode.mtimeNs())
                .putLong(inode.ctimeNs()).putLong(inode.parent()).putLong(inode.syncedNs())
                .putInt(name.length).put(name).putInt(ufs.length).put(ufs).put(target);
        return packed.array();
    }

    /** An inode from its packed value (a script's reply or GET). */
    static Inode inode(long ino, Object reply) throws IOException {
        if (!(reply instanceof byte[] packed) || packed.length == 0) {
            throw new IOException("corrupt metastore: inode " + ino + " is missing");
        }
        return inode(ino, packed);
    }

    static Inode inode(long ino, byte[] packed) throws IOException {
        try {
            ByteBuffer in = ByteBuffer.wrap(packed);
            InodeType type = type((char) in.get(TYPE));
            int flags = in.get(FLAGS);
            in.position(NAME);
            String name = string(in, in.getInt());
            int ufsLength = in.getInt();
            String ufs = (flags & HAS_UFS) != 0 ? string(in, ufsLength) : null;
            return new Inode(ino, type, in.getInt(MODE), in.getInt(UID), in.getInt(GID), in.getLong(ATIME),
                    in.getLong(MTIME), in.getLong(CTIME), in.getInt(NLINK), in.getLong(SIZE), in.getLong(RDEV),
                    in.getLong(PARENT), name, ufs, in.getLong(SYNCED));
        } catch (IndexOutOfBoundsException | BufferUnderflowException e) {
            throw new IOException("corrupt metastore: inode " + ino + " is truncated (" + packed.length + " bytes)", e);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt metastore: inode " + ino + ": " + e.getMessage(), e);
        }
    }

    /** A symlink's target from its packed value: what follows the UFS version. */
    static String target(byte[] packed) throws IOException {
        try {
            ByteBuffer in = ByteBuffer.wrap(packed);
            int ufs = Math.addExact(NAME + 4, in.getInt(NAME));
            int from = Math.addExact(ufs + 4, in.getInt(ufs));
            if (from < 0 || from > packed.length) {
                throw new IndexOutOfBoundsException(from);
            }
            return new String(packed, from, packed.length - from, StandardCharsets.UTF_8);
        } catch (IndexOutOfBoundsException | ArithmeticException e) {
            throw new IOException("corrupt metastore: a symlink's value is truncated (" + packed.length + " bytes)", e);
        }
    }

    static boolean hasXattrs(byte[] packed) {
        return (packed[FLAGS] & HAS_XATTRS) != 0;
    }

    /** The packed value with another nlink (load's and fsck's repairs). */
    static byte[] withNlink(byte[] packed, int nlink) {
        byte[] copy = packed.clone();
        ByteBuffer.wrap(copy).putInt(NLINK, nlink);
        return copy;
    }

    /** The packed value with another primary link: the parent in place, the name spliced in. */
    static byte[] withPrimary(byte[] packed, long parent, String name) {
        byte[] newName = RedisKeys.bytes(name);
        int oldLength = ByteBuffer.wrap(packed).getInt(NAME);
        int rest = NAME + 4 + oldLength;
        ByteBuffer out = ByteBuffer.allocate(packed.length - oldLength + newName.length);
        out.put(packed, 0, NAME).putInt(NAME, newName.length).position(NAME + 4);
        out.put(newName).put(packed, rest, packed.length - rest).putLong(PARENT, parent);
        return out.array();
    }

    /** Eight bytes, big-endian: a time or size as the scripts splice it into a packed value. */
    static byte[] u64(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    /** Four bytes, big-endian: mode, uid or gid as the scripts splice it. */
    static byte[] u32(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    private static String string(ByteBuffer in, int length) {
        if (length < 0 || length > in.remaining()) {
            throw new IndexOutOfBoundsException("a string of " + length + " bytes");
        }
        String value = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return value;
    }

    /** An entry's value in d<dir>: the type letter, then the inode number. */
    static String entry(InodeType type, long ino) {
        return letter(type) + Long.toString(ino);
    }

    static Dentry dentry(long parent, String name, String value) throws IOException {
        if (value == null || value.length() < 2) {
            throw new IOException("corrupt metastore: entry '" + name + "' in directory " + parent + " is '" + value
                    + "'");
        }
        try {
            return new Dentry(parent, name, Long.parseLong(value, 1, value.length(), 10), type(value.charAt(0)));
        } catch (NumberFormatException e) {
            throw new IOException("corrupt metastore: entry '" + name + "' in directory " + parent + " is '" + value
                    + "'", e);
        }
    }

    static String string(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return reply == null ? null : reply.toString();
    }
}
