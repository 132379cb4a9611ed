package io.strata.meta.redis;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.Names;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpEntry;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The source side of a dump of the Redis engine (the keys are in the header of {@link RedisKeys}).
 *
 * <p>A dump reads a directory page in two steps: its names and entries with one Lua script
 * ({@code dump_names.lua}: ZRANGEBYLEX and one HMGET), then the hashes and xattrs of the inodes
 * they name with one MULTI/EXEC of raw HGETALLs (decoded here without maps: a million inodes are
 * thirty million strings); {@value #PARALLELISM} pages are in flight at once on pooled
 * connections. Redis has no snapshot of a database short of a fork, so this is what a dump
 * guarantees: the inodes of one page, with their xattrs, are read at one instant, and the names
 * of the page at another just before. Pages are not consistent with each other: a change while
 * the dump runs may show in one page and not in another (a renamed entry in both directories or
 * in neither; a new hard link counted at one name and not at the first), and a name removed
 * between the two reads of its page is left out. Unmount every client for an exact backup; a load
 * recomputes nlink and the counters either way, so what it loads is consistent.
 */
final class RedisDumpSource implements DumpSource {
    static final int PARALLELISM = 4;

    /** The fields of i&lt;ino&gt; a dump reads (RedisKeys' header); the constants below index them. */
    private static final byte[][] FIELDS = {RedisKeys.bytes("type"), RedisKeys.bytes("mode"), RedisKeys.bytes("uid"), RedisKeys.bytes("gid"),
        RedisKeys.bytes("rdev"), RedisKeys.bytes("size"), RedisKeys.bytes("nlink"), RedisKeys.bytes("atime"), RedisKeys.bytes("mtime"), RedisKeys.bytes("ctime"),
        RedisKeys.bytes("parent"), RedisKeys.bytes("name"), RedisKeys.bytes("synced"), RedisKeys.bytes("ufs"), RedisKeys.bytes("target")};
    private static final int TYPE = 0;
    private static final int MODE = 1;
    private static final int UID = 2;
    private static final int GID = 3;
    private static final int RDEV = 4;
    private static final int SIZE = 5;
    private static final int NLINK = 6;
    private static final int ATIME = 7;
    private static final int MTIME = 8;
    private static final int CTIME = 9;
    private static final int PARENT = 10;
    private static final int NAME = 11;
    private static final int SYNCED = 12;
    private static final int UFS = 13;
    private static final int TARGET = 14;

    private final JedisPooled jedis;
    private final String where;
    private final String script;
    private volatile byte[] sha;

    RedisDumpSource(JedisPooled jedis, String where) {
        this.jedis = requireNonNull(jedis, "jedis is null");
        this.where = requireNonNull(where, "where is null");
        this.script = RedisKeys.luaPrelude() + RedisScripts.resource("dump_names.lua");
    }

    @Override
    public String consistency() {
        return "each directory page's inodes read at one instant, the pages not (Redis has no snapshot):"
                + " unmount every client for an exact copy";
    }

    @Override
    public int parallelism() {
        return PARALLELISM;
    }

    @Override
    public Map<String, String> settings() throws IOException {
        return call(() -> jedis.hgetAll(RedisKeys.SETTINGS));
    }

    @Override
    public DumpCounters counters() throws IOException {
        return call(() -> {
            List<String> counters = jedis.hmget(RedisKeys.COUNTERS, RedisKeys.NEXT_INODE, RedisKeys.INODES,
                    RedisKeys.USED_BYTES);
            if (counters.contains(null)) {
                throw new IOException("corrupt metastore " + where + ": counters are missing");
            }
            // next_inode is the last number handed out
            return new DumpCounters(Long.parseLong(counters.get(0)) + 1, Long.parseLong(counters.get(1)),
                    Long.parseLong(counters.get(2)));
        });
    }

    @Override
    public DumpedInode root() throws IOException {
        return call(() -> {
            Response<Object> inode;
            Response<Object> xattrs;
            try (AbstractTransaction batch = jedis.multi()) {
                inode = batch.sendCommand(Command.HGETALL, RedisKeys.bytes(RedisKeys.inode(Inode.ROOT)));
                xattrs = batch.sendCommand(Command.HGETALL, RedisKeys.bytes(RedisKeys.xattrs(Inode.ROOT)));
                batch.exec();
            }
            DumpedInode root = node(Inode.ROOT, (List<?>) inode.get(), (List<?>) xattrs.get());
            if (root == null) {
                throw new IOException("corrupt metastore " + where + ": the root inode is missing");
            }
            return root;
        });
    }

    @Override
    public List<DumpEntry> page(long dir, String after, int limit) throws IOException {
        List<byte[]> args = List.of(RedisKeys.bytes(Long.toString(dir)),
                RedisKeys.bytes(after == null ? "-" : "(" + after),
                RedisKeys.bytes(Integer.toString(limit)));
        return call(() -> {
            List<?> reply = (List<?>) evalsha(args);
            List<?> names = (List<?>) reply.get(0);
            List<?> entries = (List<?>) reply.get(1);
            if (names.isEmpty()) {
                return List.of();
            }
            long[] inos = new long[names.size()];
            for (int i = 0; i < inos.length; i++) {
                String entry = RedisCodec.string(entries.get(i));
                try {
                    inos[i] = entry == null ? -1 : Long.parseLong(entry, 1, entry.length(), 10);
                } catch (NumberFormatException | IndexOutOfBoundsException e) {
                    throw new IOException("corrupt metastore " + where + ": entry '" + RedisCodec.string(names.get(i))
                            + "' in directory " + dir + " is '" + entry + "'", e);
                }
            }
            // the inodes and their xattrs, all read at one instant
            // raw HGETALL replies: a flat list of names and values, decoded here without maps
            List<Response<Object>> hashes = new ArrayList<>(inos.length);
            List<Response<Object>> xattrs = new ArrayList<>(inos.length);
            try (AbstractTransaction batch = jedis.multi()) {
                for (long ino : inos) {
                    hashes.add(ino < 0 ? null : batch.sendCommand(Command.HGETALL, RedisKeys.bytes(RedisKeys.inode(ino))));
                    xattrs.add(ino < 0 ? null : batch.sendCommand(Command.HGETALL, RedisKeys.bytes(RedisKeys.xattrs(ino))));
                }
                batch.exec();
            }
            List<DumpEntry> page = new ArrayList<>(inos.length);
            for (int i = 0; i < inos.length; i++) {
                String name = RedisCodec.string(names.get(i));
                // a name without an entry was removed between the two reads: the dump leaves it out
                page.add(new DumpEntry(name, inos[i], inos[i] < 0 ? null
                        : node(inos[i], (List<?>) hashes.get(i).get(), (List<?>) xattrs.get(i).get())));
            }
            return page;
        });
    }

    @Override
    public void close() {
        // the store's pool is the store's
    }

    private Object evalsha(List<byte[]> args) {
        byte[] loaded = sha;
        if (loaded == null) {
            loaded = RedisKeys.bytes(jedis.scriptLoad(script));
            sha = loaded;
        }
        try {
            return jedis.evalsha(loaded, List.of(), args);
        } catch (JedisNoScriptException e) {
            sha = RedisKeys.bytes(jedis.scriptLoad(script)); // the server lost its scripts (restart, SCRIPT FLUSH)
            return jedis.evalsha(sha, List.of(), args);
        }
    }

    /** The inode from the flat HGETALL of its hash and of its xattrs, or null if it is gone. */
    private DumpedInode node(long ino, List<?> hash, List<?> xattrs) throws IOException {
        if (hash.isEmpty()) {
            return null;
        }
        byte[][] fields = new byte[FIELDS.length][];
        for (int i = 0; i + 1 < hash.size(); i += 2) {
            int index = field((byte[]) hash.get(i));
            if (index >= 0) {
                fields[index] = (byte[]) hash.get(i + 1);
            }
        }
        List<byte[]> values = java.util.Arrays.asList(fields);
        Inode inode;
        try {
            if (fields[TYPE] == null || fields[TYPE].length != 1) {
                throw new IOException("corrupt metastore " + where + ": inode " + ino + " has no type");
            }
            inode = new Inode(ino, RedisCodec.type((char) fields[TYPE][0]), (int) number(values, MODE, ino),
                    (int) number(values, UID, ino), (int) number(values, GID, ino), number(values, ATIME, ino),
                    number(values, MTIME, ino), number(values, CTIME, ino), (int) number(values, NLINK, ino),
                    number(values, SIZE, ino), number(values, RDEV, ino), number(values, PARENT, ino),
                    string(values, NAME, ino), RedisCodec.string(fields[UFS]), number(values, SYNCED, ino));
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt metastore " + where + ": inode " + ino + ": " + e.getMessage(), e);
        }
        String target = RedisCodec.string(fields[TARGET]);
        if (inode.type() == InodeType.SYMLINK && target == null) {
            throw new IOException("corrupt metastore " + where + ": symlink " + ino + " has no target");
        }
        List<Xattr> attributes = List.of();
        if (!xattrs.isEmpty()) {
            List<Xattr> list = new ArrayList<>(xattrs.size() / 2);
            for (int i = 0; i + 1 < xattrs.size(); i += 2) {
                list.add(new Xattr(RedisCodec.string(xattrs.get(i)), (byte[]) xattrs.get(i + 1)));
            }
            list.sort((a, b) -> Names.ORDER.compare(a.name(), b.name()));
            attributes = list;
        }
        return new DumpedInode(inode, inode.type() == InodeType.SYMLINK ? target : null, attributes);
    }

    /**
     * The index in {@link #FIELDS} of a field name, or -1 for a field a dump does not read:
     * length and first letter tell the fields apart (the second letter for uid and ufs), one
     * comparison confirms.
     */
    private static int field(byte[] name) {
        if (name.length < 3) {
            return -1;
        }
        int index = switch (name.length) {
            case 3 -> name[0] == 'g' ? GID : name[0] == 'u' ? (name[1] == 'i' ? UID : UFS) : -1;
            case 4 -> switch (name[0]) {
                case 't' -> TYPE;
                case 'm' -> MODE;
                case 's' -> SIZE;
                case 'n' -> NAME;
                case 'r' -> RDEV;
                default -> -1;
            };
            case 5 -> switch (name[0]) {
                case 'n' -> NLINK;
                case 'a' -> ATIME;
                case 'm' -> MTIME;
                case 'c' -> CTIME;
                default -> -1;
            };
            case 6 -> switch (name[0]) {
                case 'p' -> PARENT;
                case 's' -> SYNCED;
                case 't' -> TARGET;
                default -> -1;
            };
            default -> -1;
        };
        return index >= 0 && java.util.Arrays.equals(FIELDS[index], name) ? index : -1;
    }

    private String string(List<byte[]> fields, int index, long ino) throws IOException {
        byte[] value = fields.get(index);
        if (value == null) {
            throw new IOException("corrupt metastore " + where + ": inode " + ino + " has no "
                    + RedisCodec.string(FIELDS[index]));
        }
        return RedisCodec.string(value);
    }

    /** A decimal number, parsed from its ASCII bytes: a million inodes hold fourteen million of them. */
    private long number(List<byte[]> fields, int index, long ino) throws IOException {
        byte[] digits = fields.get(index);
        if (digits == null || digits.length == 0 || digits.length > 20) {
            throw malformedNumber(digits, index, ino);
        }
        boolean negative = digits[0] == '-';
        long value = 0;
        for (int i = negative ? 1 : 0; i < digits.length; i++) {
            int digit = digits[i] - '0';
            if (digit < 0 || digit > 9) {
                throw malformedNumber(digits, index, ino);
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    private IOException malformedNumber(byte[] digits, int index, long ino) {
        return new IOException("corrupt metastore " + where + ": inode " + ino + " has "
                + (digits == null ? "no " + RedisCodec.string(FIELDS[index])
                : "a malformed " + RedisCodec.string(FIELDS[index]) + " '" + RedisCodec.string(digits) + "'"));
    }

    private <T> T call(Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (JedisException | ClassCastException | IndexOutOfBoundsException e) {
            throw new IOException("cannot dump " + where + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }
}
