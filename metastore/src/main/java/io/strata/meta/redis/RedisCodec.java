package io.strata.meta.redis;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The encodings of the Redis metastore's values (see the header of {@link RedisKeys}): an inode
 * as the fields of its hash, a directory entry as a type letter and an inode number.
 */
final class RedisCodec {
    private RedisCodec() {}

    /** ls's letter for a type, as stored in i<ino>.type and in entries. */
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

    /** The fields of i<ino> for a new inode, as alternating names and values for HSET. */
    static List<byte[]> fields(Inode inode, String symlinkTarget) {
        List<byte[]> fields = new ArrayList<>(34);
        add(fields, "type", String.valueOf(letter(inode.type())));
        add(fields, "mode", inode.mode());
        add(fields, "uid", inode.uid());
        add(fields, "gid", inode.gid());
        add(fields, "rdev", inode.rdev());
        add(fields, "size", inode.size());
        add(fields, "nlink", inode.nlink());
        add(fields, "atime", inode.atimeNs());
        add(fields, "mtime", inode.mtimeNs());
        add(fields, "ctime", inode.ctimeNs());
        add(fields, "parent", inode.parent());
        add(fields, "name", inode.name());
        add(fields, "synced", inode.syncedNs());
        if (inode.ufsVersion() != null) {
            add(fields, "ufs", inode.ufsVersion());
        }
        if (symlinkTarget != null) {
            add(fields, "target", symlinkTarget);
        }
        return fields;
    }

    /** An inode from its hash (HGETALL as a map). */
    static Inode inode(long ino, Map<String, String> hash) throws IOException {
        try {
            return new Inode(ino, type(field(hash, "type", ino).charAt(0)), integer(hash, "mode", ino),
                    integer(hash, "uid", ino), integer(hash, "gid", ino), number(hash, "atime", ino),
                    number(hash, "mtime", ino), number(hash, "ctime", ino), integer(hash, "nlink", ino),
                    number(hash, "size", ino), number(hash, "rdev", ino), number(hash, "parent", ino),
                    field(hash, "name", ino), hash.get("ufs"), number(hash, "synced", ino));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IOException("corrupt metastore: inode " + ino + " has a malformed field", e);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt metastore: inode " + ino + ": " + e.getMessage(), e);
        }
    }

    /** An inode from a script's reply: the flat HGETALL list of names and values. */
    static Inode inode(long ino, Object hgetall) throws IOException {
        if (!(hgetall instanceof List<?> flat) || flat.isEmpty()) {
            throw new IOException("corrupt metastore: inode " + ino + " is missing");
        }
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            hash.put(string(flat.get(i)), string(flat.get(i + 1)));
        }
        return inode(ino, hash);
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

    private static void add(List<byte[]> fields, String name, Object value) {
        fields.add(RedisKeys.bytes(name));
        fields.add(RedisKeys.bytes(value.toString()));
    }

    private static String field(Map<String, String> hash, String name, long ino) throws IOException {
        String value = hash.get(name);
        if (value == null) {
            throw new IOException("corrupt metastore: inode " + ino + " has no " + name);
        }
        return value;
    }

    private static long number(Map<String, String> hash, String name, long ino) throws IOException {
        return Long.parseLong(field(hash, name, ino));
    }

    private static int integer(Map<String, String> hash, String name, long ino) throws IOException {
        return Integer.parseInt(field(hash, name, ino));
    }
}
