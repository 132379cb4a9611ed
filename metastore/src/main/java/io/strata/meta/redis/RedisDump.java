package io.strata.meta.redis;

import io.strata.meta.VolumeFormat;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.Names;
import io.strata.meta.dump.DumpCounters;
import io.strata.meta.dump.DumpEntry;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.DumpedInode;
import io.strata.meta.dump.DumpedInode.Xattr;
import io.strata.meta.dump.LoadBatch;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.dump.Unicode;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Dump and load for the Redis engine (the keys are in the header of {@link RedisKeys}).
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
 *
 * <p>A load writes each batch as one pipeline (the inode hashes and xattrs, then per directory one
 * HSET of its entries and one ZADD of its names), {@value #PARALLELISM} pipelines at once. It
 * cannot be one transaction: the setting {@value #LOADING} marks the volume while it runs, and a
 * failed load empties the database (FLUSHDB: a volume owns its database).
 */
final class RedisDump {
    static final int PARALLELISM = 4;
    /** The setting that marks a volume being loaded; it goes when the load is done. */
    static final String LOADING = LoadTarget.LOADING_SETTING;

    private RedisDump() {}

    private static byte[] bytes(String text) {
        return RedisKeys.bytes(text);
    }

    private static String text(Object reply) {
        return RedisCodec.string(reply);
    }

    /** A dump's pages: names and entries by {@code dump_names.lua}, then the inodes in one MULTI. */
    static final class Source implements DumpSource {
        /** The fields of i&lt;ino&gt; a dump reads (RedisKeys' header); the constants below index them. */
        private static final byte[][] FIELDS = {bytes("type"), bytes("mode"), bytes("uid"), bytes("gid"),
            bytes("rdev"), bytes("size"), bytes("nlink"), bytes("atime"), bytes("mtime"), bytes("ctime"),
            bytes("parent"), bytes("name"), bytes("synced"), bytes("ufs"), bytes("target")};
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

        Source(JedisPooled jedis, String where) {
            this.jedis = requireNonNull(jedis, "jedis is null");
            this.where = requireNonNull(where, "where is null");
            this.script = RedisKeys.luaPrelude() + resource("dump_names.lua");
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
                    inode = batch.sendCommand(Command.HGETALL, bytes(RedisKeys.inode(Inode.ROOT)));
                    xattrs = batch.sendCommand(Command.HGETALL, bytes(RedisKeys.xattrs(Inode.ROOT)));
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
            List<byte[]> args = List.of(bytes(Long.toString(dir)), after == null ? bytes("-") : bytes("(" + after),
                    bytes(Integer.toString(limit)));
            return call(() -> {
                List<?> reply = (List<?>) evalsha(args);
                List<?> names = (List<?>) reply.get(0);
                List<?> entries = (List<?>) reply.get(1);
                if (names.isEmpty()) {
                    return List.of();
                }
                long[] inos = new long[names.size()];
                for (int i = 0; i < inos.length; i++) {
                    String entry = text(entries.get(i));
                    try {
                        inos[i] = entry == null ? -1 : Long.parseLong(entry, 1, entry.length(), 10);
                    } catch (NumberFormatException | IndexOutOfBoundsException e) {
                        throw new IOException("corrupt metastore " + where + ": entry '" + text(names.get(i))
                                + "' in directory " + dir + " is '" + entry + "'", e);
                    }
                }
                // the inodes and their xattrs, all read at one instant
                // raw HGETALL replies: a flat list of names and values, decoded here without maps
                List<Response<Object>> hashes = new ArrayList<>(inos.length);
                List<Response<Object>> xattrs = new ArrayList<>(inos.length);
                try (AbstractTransaction batch = jedis.multi()) {
                    for (long ino : inos) {
                        hashes.add(ino < 0 ? null : batch.sendCommand(Command.HGETALL, bytes(RedisKeys.inode(ino))));
                        xattrs.add(ino < 0 ? null : batch.sendCommand(Command.HGETALL, bytes(RedisKeys.xattrs(ino))));
                    }
                    batch.exec();
                }
                List<DumpEntry> page = new ArrayList<>(inos.length);
                for (int i = 0; i < inos.length; i++) {
                    String name = text(names.get(i));
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
                loaded = bytes(jedis.scriptLoad(script));
                sha = loaded;
            }
            try {
                return jedis.evalsha(loaded, List.of(), args);
            } catch (JedisNoScriptException e) {
                sha = bytes(jedis.scriptLoad(script)); // the server lost its scripts (restart, SCRIPT FLUSH)
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
                        string(values, NAME, ino), text(fields[UFS]), number(values, SYNCED, ino));
            } catch (IllegalArgumentException e) {
                throw new IOException("corrupt metastore " + where + ": inode " + ino + ": " + e.getMessage(), e);
            }
            String target = text(fields[TARGET]);
            if (inode.type() == InodeType.SYMLINK && target == null) {
                throw new IOException("corrupt metastore " + where + ": symlink " + ino + " has no target");
            }
            List<Xattr> attributes = List.of();
            if (!xattrs.isEmpty()) {
                List<Xattr> list = new ArrayList<>(xattrs.size() / 2);
                for (int i = 0; i + 1 < xattrs.size(); i += 2) {
                    list.add(new Xattr(text(xattrs.get(i)), (byte[]) xattrs.get(i + 1)));
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
                        + text(FIELDS[index]));
            }
            return text(value);
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
                    + (digits == null ? "no " + text(FIELDS[index]) : "a malformed " + text(FIELDS[index]) + " '"
                    + text(digits) + "'"));
        }

        private <T> T call(Call<T> call) throws IOException {
            try {
                return call.run();
            } catch (JedisException | ClassCastException | IndexOutOfBoundsException e) {
                throw new IOException("cannot dump " + where + ": " + e.getMessage(), e);
            }
        }
    }

    /** A load's batches as pipelines; see the class comment. */
    static final class Target implements LoadTarget {
        private final JedisPooled jedis;
        private final String where;

        Target(JedisPooled jedis, String where) {
            this.jedis = requireNonNull(jedis, "jedis is null");
            this.where = requireNonNull(where, "where is null");
        }

        @Override
        public String describe() {
            return where;
        }

        @Override
        public int parallelism() {
            return PARALLELISM;
        }

        @Override
        public Optional<String> nonEmpty() throws IOException {
            return call(() -> {
                if (jedis.hget(RedisKeys.SETTINGS, LOADING) != null) {
                    return Optional.of("a load into it did not finish");
                }
                String inodes = jedis.hget(RedisKeys.COUNTERS, RedisKeys.INODES);
                if (inodes != null && !inodes.equals("1")) {
                    return Optional.of("it has " + inodes + " inodes");
                }
                if (jedis.exists(RedisKeys.entries(Inode.ROOT)) || jedis.exists(RedisKeys.names(Inode.ROOT))) {
                    return Optional.of("its root directory has entries");
                }
                if (jedis.exists(RedisKeys.xattrs(Inode.ROOT))) {
                    return Optional.of("its root directory has xattrs");
                }
                return Optional.empty();
            });
        }

        /** FLUSHDB, then what formatting an empty database writes (RedisMetaStore's format.lua). */
        @Override
        public void clear() throws IOException {
            call(() -> {
                long now = System.currentTimeMillis() * 1_000_000L;
                Inode root = new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, now, now, now, 2, 0, 0,
                        Inode.ROOT, "", null, Inode.NEVER_SYNCED);
                jedis.flushDB();
                try (AbstractTransaction batch = jedis.multi()) {
                    batch.hset(RedisKeys.SETTINGS, VolumeFormat.VERSION_KEY,
                            Integer.toString(VolumeFormat.VERSION));
                    batch.hset(RedisKeys.COUNTERS, Map.of(RedisKeys.NEXT_INODE, Long.toString(Inode.ROOT),
                            RedisKeys.INODES, "1", RedisKeys.USED_BYTES, "0"));
                    batch.hset(bytes(RedisKeys.inode(Inode.ROOT)), hash(RedisCodec.fields(root, null)));
                    batch.exec();
                }
                return null;
            });
        }

        @Override
        public void begin() throws IOException {
            call(() -> jedis.hset(RedisKeys.SETTINGS, LOADING, "strata load began at " + Instant.now()));
        }

        @Override
        public void write(LoadBatch batch) throws IOException {
            // Raw commands from argument arrays (no maps to build and take apart again); a
            // directory's entries go out together: one HSET and one ZADD per directory and batch.
            Map<Long, List<byte[]>> entries = new LinkedHashMap<>();
            Map<Long, List<byte[]>> names = new LinkedHashMap<>();
            List<byte[][]> commands = new ArrayList<>(batch.inodes().size() + batch.names().size() / 8);
            for (DumpedInode node : batch.inodes()) {
                storable(node.inode().name(), "name");
                if (node.symlinkTarget() != null) {
                    storable(node.symlinkTarget(), "symlink target");
                }
                if (node.inode().ufsVersion() != null) {
                    storable(node.inode().ufsVersion(), "UFS version");
                }
                List<byte[]> fields = RedisCodec.fields(node.inode(), node.symlinkTarget());
                byte[][] hset = new byte[fields.size() + 1][];
                hset[0] = bytes(RedisKeys.inode(node.ino()));
                for (int i = 0; i < fields.size(); i++) {
                    hset[i + 1] = fields.get(i);
                }
                commands.add(hset);
                if (!node.xattrs().isEmpty()) {
                    byte[][] values = new byte[1 + 2 * node.xattrs().size()][];
                    values[0] = bytes(RedisKeys.xattrs(node.ino()));
                    int i = 1;
                    for (Xattr xattr : node.xattrs()) {
                        values[i++] = bytes(storable(xattr.name(), "xattr name"));
                        values[i++] = xattr.value();
                    }
                    commands.add(values);
                }
            }
            List<byte[][]> links = new ArrayList<>();
            for (LoadBatch.Name name : batch.names()) {
                var dentry = name.dentry();
                byte[] member = bytes(storable(dentry.name(), "name"));
                List<byte[]> hset = entries.computeIfAbsent(dentry.parent(), dir -> keyed(RedisKeys.entries(dir)));
                hset.add(member);
                hset.add(bytes(RedisCodec.entry(dentry.type(), dentry.ino())));
                List<byte[]> zadd = names.computeIfAbsent(dentry.parent(), dir -> keyed(RedisKeys.names(dir)));
                zadd.add(ZERO);
                zadd.add(member);
                if (name.hardLinked()) {
                    links.add(new byte[][] {bytes(RedisKeys.links(dentry.ino())), ZERO,
                        linkMember(dentry.parent(), dentry.name())});
                }
            }
            call(() -> {
                try (AbstractPipeline pipeline = jedis.pipelined()) {
                    for (byte[][] hset : commands) {
                        pipeline.sendCommand(Command.HSET, hset);
                    }
                    entries.values().forEach(hset -> pipeline.sendCommand(Command.HSET, hset.toArray(new byte[0][])));
                    names.values().forEach(zadd -> pipeline.sendCommand(Command.ZADD, zadd.toArray(new byte[0][])));
                    for (byte[][] zadd : links) {
                        pipeline.sendCommand(Command.ZADD, zadd);
                    }
                    pipeline.sync();
                }
                return null;
            });
        }

        private static List<byte[]> keyed(String key) {
            List<byte[]> arguments = new ArrayList<>();
            arguments.add(bytes(key));
            return arguments;
        }

        @Override
        public void finish(Summary summary) throws IOException {
            call(() -> {
                // the primary links of hard-linked inodes whose batch kept the one it wrote
                Map<Long, Response<List<byte[]>>> primaries = new HashMap<>();
                try (AbstractPipeline pipeline = jedis.pipelined()) {
                    for (LinkFix fix : summary.fixes()) {
                        if (!fix.movesPrimary() && fix.nlink() >= 2) {
                            primaries.put(fix.ino(), pipeline.hmget(bytes(RedisKeys.inode(fix.ino())), bytes("type"),
                                    bytes("parent"), bytes("name")));
                        }
                    }
                    pipeline.sync();
                }
                try (AbstractPipeline pipeline = jedis.pipelined()) {
                    DumpedInode root = summary.root();
                    pipeline.hset(bytes(RedisKeys.inode(Inode.ROOT)), hash(RedisCodec.fields(root.inode(), null)));
                    pipeline.del(bytes(RedisKeys.xattrs(Inode.ROOT)));
                    if (!root.xattrs().isEmpty()) {
                        Map<byte[], byte[]> values = new LinkedHashMap<>();
                        for (Xattr xattr : root.xattrs()) {
                            values.put(bytes(storable(xattr.name(), "xattr name")), xattr.value());
                        }
                        pipeline.hset(bytes(RedisKeys.xattrs(Inode.ROOT)), values);
                    }
                    for (LinkFix fix : summary.fixes()) {
                        byte[] key = bytes(RedisKeys.inode(fix.ino()));
                        pipeline.hset(key, bytes("nlink"), bytes(Integer.toString(fix.nlink())));
                        byte[] links = bytes(RedisKeys.links(fix.ino()));
                        if (fix.movesPrimary()) {
                            pipeline.hset(key, Map.of(bytes("parent"), bytes(Long.toString(fix.parent())),
                                    bytes("name"), bytes(fix.name())));
                            if (fix.nlink() >= 2) {
                                pipeline.zadd(links, Map.of(linkMember(fix.parent(), fix.name()), 0.0));
                            }
                        }
                        Response<List<byte[]>> primary = primaries.get(fix.ino());
                        if (primary != null && !"d".equals(text(primary.get().get(0)))) {
                            // a first name that said nlink 1 was not added to l<ino>: its primary link is it
                            pipeline.zadd(links, Map.of(linkMember(Long.parseLong(text(primary.get().get(1))),
                                    text(primary.get().get(2))), 0.0));
                        }
                        if (fix.nlink() < 2) {
                            pipeline.del(links); // l<ino> exists only at two names or more
                        }
                    }
                    DumpCounters counters = summary.counters();
                    pipeline.hset(bytes(RedisKeys.COUNTERS), Map.of(
                            bytes(RedisKeys.NEXT_INODE), bytes(Long.toString(counters.nextInode() - 1)),
                            bytes(RedisKeys.INODES), bytes(Long.toString(counters.inodes())),
                            bytes(RedisKeys.USED_BYTES), bytes(Long.toString(counters.usedBytes()))));
                    if (!summary.settings().isEmpty()) {
                        Map<byte[], byte[]> settings = new LinkedHashMap<>();
                        for (Map.Entry<String, String> setting : summary.settings().entrySet()) {
                            settings.put(bytes(storable(setting.getKey(), "setting")),
                                    bytes(storable(setting.getValue(), "setting")));
                        }
                        pipeline.hset(bytes(RedisKeys.SETTINGS), settings);
                    }
                    pipeline.hdel(bytes(RedisKeys.SETTINGS), bytes(LOADING));
                    pipeline.sync();
                }
                return null;
            });
        }

        @Override
        public void abort() throws IOException {
            clear();
        }

        @Override
        public void close() {
            // the store's pool is the store's
        }

        private String storable(String value, String what) throws IOException {
            if (!Unicode.isWellFormed(value)) {
                throw new IOException("the " + what + " \"" + Unicode.printable(value) + "\" cannot be stored in "
                        + where + ": it is not valid Unicode (an unpaired surrogate)");
            }
            return value;
        }

        private <T> T call(Call<T> call) throws IOException {
            try {
                return call.run();
            } catch (JedisException e) {
                throw new IOException("cannot load into " + where + ": " + e.getMessage(), e);
            }
        }
    }

    private static final byte[] ZERO = bytes("0");

    /** An l&lt;ino&gt; member: the parent as 20 digits, '/', the name (see {@link RedisKeys}). */
    private static byte[] linkMember(long parent, String name) {
        return bytes(String.format("%020d/%s", parent, name));
    }

    /** Alternating field names and values, as a map for HSET. */
    private static Map<byte[], byte[]> hash(List<byte[]> fields) {
        Map<byte[], byte[]> hash = new LinkedHashMap<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            hash.put(fields.get(i), fields.get(i + 1));
        }
        return hash;
    }

    private static String resource(String file) {
        try (InputStream in = RedisDump.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("script " + file + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + file, e);
        }
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }
}
