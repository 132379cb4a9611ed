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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * The source side of a dump of the Redis engine (the keys are in the header of {@link RedisKeys}).
 *
 * <p>A dump reads a directory page with one Lua script ({@code dump_names.lua}: ZRANGEBYLEX of
 * the names, one HMGET of their entries, one MGET of the packed inodes, and HGETALL of x&lt;ino&gt;
 * only for the inodes whose flag says they have xattrs; for a directory that fits the page, one
 * HGETALL of its entries in place of ZRANGEBYLEX and HMGET, sorted here); {@value #PARALLELISM}
 * pages are in flight at once on pooled connections. Redis has no snapshot of a database short of a fork, so
 * this is what a dump guarantees: a page, its names, inodes and xattrs, is read at one instant.
 * Pages are not consistent with each other: a change while the dump runs may show in one page and
 * not in another (a renamed entry in both directories or in neither; a new hard link counted at
 * one name and not at the first). Unmount every client for an exact backup; a load
 * recomputes nlink and the counters either way, so what it loads is consistent.
 */
final class RedisDumpSource implements DumpSource {
    static final int PARALLELISM = 4;

    private final JedisPooled jedis;
    private final String where;
    private final String script;
    private volatile byte[] sha;

    RedisDumpSource(JedisPooled jedis, String where) {
        this.jedis = requireNonNull(jedis, "jedis is null");
        this.where = requireNonNull(where, "where is null");
        this.script = RedisKeys.luaPrelude() + RedisScripts.resource("common.lua")
                + RedisScripts.resource("dump_names.lua");
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
                inode = batch.sendCommand(Command.GET, RedisKeys.bytes(RedisKeys.inode(Inode.ROOT)));
                xattrs = batch.sendCommand(Command.HGETALL, RedisKeys.bytes(RedisKeys.xattrs(Inode.ROOT)));
                batch.exec();
            }
            DumpedInode root = node(Inode.ROOT, (byte[]) inode.get(), (List<?>) xattrs.get());
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
            PageReply reply = PageReply.of((List<?>) evalsha(args));
            List<?> names = reply.names();
            if (names.isEmpty()) {
                return List.of();
            }
            // {index from 1, flat HGETALL}, only for the inodes flagged as having xattrs
            List<?>[] attributes = new List<?>[names.size()];
            for (int i = 0; i + 1 < reply.xattrs().size(); i += 2) {
                attributes[Math.toIntExact((Long) reply.xattrs().get(i)) - 1] = (List<?>) reply.xattrs().get(i + 1);
            }
            List<DumpEntry> page = new ArrayList<>(names.size());
            for (int i : reply.order()) {
                String name = RedisCodec.string(names.get(i));
                String entry = RedisCodec.string(reply.entries().get(i));
                long ino;
                try {
                    ino = entry == null ? -1 : Long.parseLong(entry, 1, entry.length(), 10);
                } catch (NumberFormatException | IndexOutOfBoundsException e) {
                    throw new IOException("corrupt metastore " + where + ": entry '" + name + "' in directory " + dir
                            + " is '" + entry + "'", e);
                }
                // a name without an entry was removed between the two reads: the dump leaves it out
                page.add(new DumpEntry(name, ino, ino < 0 ? null
                        : node(ino, (byte[]) reply.inodes().get(i), attributes[i] == null ? List.of() : attributes[i])));
            }
            return page;
        });
    }

    /**
     * What {@code dump_names.lua} answered for one page: the names (raw bytes), their entries, packed
     * inodes and xattrs at the same indexes, and the order the page is emitted in.
     *
     * @param sorted whether the names came sorted (ZRANGEBYLEX), or in the hash's order (HGETALL of a
     *               whole directory) and must be sorted here as ZRANGEBYLEX would
     */
    private record PageReply(List<?> names, List<?> entries, List<?> inodes, List<?> xattrs, boolean sorted) {
        static PageReply of(List<?> reply) {
            if (reply.size() == 3) { // {HGETALL of the directory, inodes, xattrs}
                List<?> flat = (List<?>) reply.get(0);
                List<Object> names = new ArrayList<>(flat.size() / 2);
                List<Object> entries = new ArrayList<>(flat.size() / 2);
                for (int i = 0; i + 1 < flat.size(); i += 2) {
                    names.add(flat.get(i));
                    entries.add(flat.get(i + 1));
                }
                return new PageReply(names, entries, (List<?>) reply.get(1), (List<?>) reply.get(2), false);
            }
            return new PageReply((List<?>) reply.get(0), (List<?>) reply.get(1), (List<?>) reply.get(2),
                    (List<?>) reply.get(3), true);
        }

        /** The indexes of the names in ZRANGEBYLEX's order: unsigned bytes, a prefix first. */
        int[] order() {
            IntStream indexes = IntStream.range(0, names.size());
            return sorted ? indexes.toArray()
                    : indexes.boxed()
                            .sorted((a, b) -> Arrays.compareUnsigned((byte[]) names.get(a), (byte[]) names.get(b)))
                            .mapToInt(Integer::intValue)
                            .toArray();
        }
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

    /** The inode from its packed value and the flat HGETALL of its xattrs, or null if it is gone. */
    private DumpedInode node(long ino, byte[] packed, List<?> xattrs) throws IOException {
        if (packed == null) {
            return null;
        }
        Inode inode;
        try {
            inode = RedisCodec.inode(ino, packed);
        } catch (IOException e) {
            throw new IOException("cannot dump " + where + ": " + e.getMessage(), e);
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
        return new DumpedInode(inode, inode.type() == InodeType.SYMLINK ? RedisCodec.target(packed) : null,
                attributes);
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
