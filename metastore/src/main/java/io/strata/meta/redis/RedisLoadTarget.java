package io.strata.meta.redis;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.VolumeFormat;
import io.strata.meta.dump.DumpCounters;
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

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The target side of a load into the Redis engine (the keys are in the header of {@link RedisKeys}).
 *
 * <p>A load writes each batch as one pipeline (one MSET of the packed inodes, the xattr hashes,
 * then per directory one HSET of its entries and one ZADD of its names), {@value #PARALLELISM} pipelines at once. It
 * cannot be one transaction: the setting {@value #LOADING} marks the volume while it runs, and a
 * failed load empties the database (FLUSHDB: a volume owns its database).
 */
final class RedisLoadTarget implements LoadTarget {
    static final int PARALLELISM = 4;
    /** The setting that marks a volume being loaded; it goes when the load is done. */
    static final String LOADING = LoadTarget.LOADING_SETTING;
    private static final byte[] ZERO = RedisKeys.bytes("0");

    private final JedisPooled jedis;
    private final String where;

    RedisLoadTarget(JedisPooled jedis, String where) {
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
                batch.set(RedisKeys.SCHEMA_KEY, Integer.toString(RedisKeys.SCHEMA));
                batch.hset(RedisKeys.COUNTERS, Map.of(RedisKeys.NEXT_INODE, Long.toString(Inode.ROOT),
                        RedisKeys.INODES, "1", RedisKeys.USED_BYTES, "0"));
                batch.set(RedisKeys.bytes(RedisKeys.inode(Inode.ROOT)), RedisCodec.pack(root, null, false));
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
        // Raw commands from argument arrays (no maps to build and take apart again): the batch's
        // inodes in one MSET, a directory's entries together (one HSET and one ZADD per
        // directory and batch), the xattr hashes one HSET each.
        Map<Long, List<byte[]>> entries = new LinkedHashMap<>();
        Map<Long, List<byte[]>> names = new LinkedHashMap<>();
        byte[][] mset = new byte[2 * batch.inodes().size()][];
        int set = 0;
        List<byte[][]> commands = new ArrayList<>();
        for (DumpedInode node : batch.inodes()) {
            storable(node.inode().name(), "name");
            if (node.symlinkTarget() != null) {
                storable(node.symlinkTarget(), "symlink target");
            }
            if (node.inode().ufsVersion() != null) {
                storable(node.inode().ufsVersion(), "UFS version");
            }
            mset[set++] = RedisKeys.bytes(RedisKeys.inode(node.ino()));
            mset[set++] = RedisCodec.pack(node.inode(), node.symlinkTarget(), !node.xattrs().isEmpty());
            if (!node.xattrs().isEmpty()) {
                byte[][] values = new byte[1 + 2 * node.xattrs().size()][];
                values[0] = RedisKeys.bytes(RedisKeys.xattrs(node.ino()));
                int i = 1;
                for (Xattr xattr : node.xattrs()) {
                    values[i++] = RedisKeys.bytes(storable(xattr.name(), "xattr name"));
                    values[i++] = xattr.value();
                }
                commands.add(values);
            }
        }
        List<byte[][]> links = new ArrayList<>();
        for (LoadBatch.Name name : batch.names()) {
            var dentry = name.dentry();
            byte[] member = RedisKeys.bytes(storable(dentry.name(), "name"));
            List<byte[]> hset = entries.computeIfAbsent(dentry.parent(), dir -> keyed(RedisKeys.entries(dir)));
            hset.add(member);
            hset.add(RedisKeys.bytes(RedisCodec.entry(dentry.type(), dentry.ino())));
            List<byte[]> zadd = names.computeIfAbsent(dentry.parent(), dir -> keyed(RedisKeys.names(dir)));
            zadd.add(ZERO);
            zadd.add(member);
            if (name.hardLinked()) {
                links.add(new byte[][] {RedisKeys.bytes(RedisKeys.links(dentry.ino())), ZERO,
                    linkMember(dentry.parent(), dentry.name())});
            }
        }
        call(() -> {
            try (AbstractPipeline pipeline = jedis.pipelined()) {
                if (mset.length > 0) {
                    pipeline.sendCommand(Command.MSET, mset);
                }
                for (byte[][] hset : commands) {
                    pipeline.sendCommand(Command.HSET, hset);
                }
                entries.values().forEach(hset -> pipeline.sendCommand(Command.HSET, hset.toArray(new byte[0][])));
                names.values().forEach(zadd -> pipeline.sendCommand(Command.ZADD, descending(zadd)));
                for (byte[][] zadd : links) {
                    pipeline.sendCommand(Command.ZADD, zadd);
                }
                pipeline.sync();
            }
            return null;
        });
    }

    /**
     * A ZADD's arguments with its members in the reverse of the order they came in: a dump lists
     * a directory's names in ascending order, and Redis inserts each member of a small sorted set
     * (a listpack) by walking it from the start to the first greater one, parsing every score on
     * the way. Added in descending order, each member goes in front of the first one it meets:
     * a million names in directories of 100 cost the server 2.6-2.8 s of CPU ascending, 1.1 s descending.
     */
    private static byte[][] descending(List<byte[]> zadd) {
        byte[][] arguments = new byte[zadd.size()][];
        arguments[0] = zadd.get(0);
        int to = 1;
        for (int from = zadd.size() - 2; from >= 1; from -= 2) {
            arguments[to++] = zadd.get(from); // the score
            arguments[to++] = zadd.get(from + 1); // the member
        }
        return arguments;
    }

    private static List<byte[]> keyed(String key) {
        List<byte[]> arguments = new ArrayList<>();
        arguments.add(RedisKeys.bytes(key));
        return arguments;
    }

    @Override
    public void finish(Summary summary) throws IOException {
        call(() -> {
            // the packed values of the inodes to fix, as their batches wrote them (no client
            // changes them: the volume is marked as loading)
            Map<Long, Response<byte[]>> written = new HashMap<>();
            try (AbstractPipeline pipeline = jedis.pipelined()) {
                for (LinkFix fix : summary.fixes()) {
                    written.put(fix.ino(), pipeline.get(RedisKeys.bytes(RedisKeys.inode(fix.ino()))));
                }
                pipeline.sync();
            }
            DumpedInode root = summary.root();
            Map<Long, byte[]> values = new LinkedHashMap<>();
            values.put(Inode.ROOT, RedisCodec.pack(root.inode(), null, !root.xattrs().isEmpty()));
            try (AbstractPipeline pipeline = jedis.pipelined()) {
                pipeline.del(RedisKeys.bytes(RedisKeys.xattrs(Inode.ROOT)));
                if (!root.xattrs().isEmpty()) {
                    Map<byte[], byte[]> xattrs = new LinkedHashMap<>();
                    for (Xattr xattr : root.xattrs()) {
                        xattrs.put(RedisKeys.bytes(storable(xattr.name(), "xattr name")), xattr.value());
                    }
                    pipeline.hset(RedisKeys.bytes(RedisKeys.xattrs(Inode.ROOT)), xattrs);
                }
                for (LinkFix fix : summary.fixes()) {
                    byte[] value = values.containsKey(fix.ino()) ? values.get(fix.ino()) : written.get(fix.ino()).get();
                    if (value == null) {
                        throw new IOException("cannot load into " + where + ": inode " + fix.ino()
                                + " to fix is missing");
                    }
                    value = RedisCodec.withNlink(value, fix.nlink());
                    byte[] links = RedisKeys.bytes(RedisKeys.links(fix.ino()));
                    if (fix.movesPrimary()) {
                        value = RedisCodec.withPrimary(value, fix.parent(), fix.name());
                        if (fix.nlink() >= 2) {
                            pipeline.zadd(links, Map.of(linkMember(fix.parent(), fix.name()), 0.0));
                        }
                    } else if (fix.nlink() >= 2 && value[RedisCodec.TYPE] != 'd') {
                        // a first name that said nlink 1 was not added to l<ino>: its primary link is it
                        Inode inode = RedisCodec.inode(fix.ino(), value);
                        pipeline.zadd(links, Map.of(linkMember(inode.parent(), inode.name()), 0.0));
                    }
                    if (fix.nlink() < 2) {
                        pipeline.del(links); // l<ino> exists only at two names or more
                    }
                    values.put(fix.ino(), value);
                }
                byte[][] mset = new byte[2 * values.size()][];
                int i = 0;
                for (Map.Entry<Long, byte[]> value : values.entrySet()) {
                    mset[i++] = RedisKeys.bytes(RedisKeys.inode(value.getKey()));
                    mset[i++] = value.getValue();
                }
                pipeline.sendCommand(Command.MSET, mset);
                DumpCounters counters = summary.counters();
                pipeline.hset(RedisKeys.bytes(RedisKeys.COUNTERS), Map.of(
                        RedisKeys.bytes(RedisKeys.NEXT_INODE), RedisKeys.bytes(Long.toString(counters.nextInode() - 1)),
                        RedisKeys.bytes(RedisKeys.INODES), RedisKeys.bytes(Long.toString(counters.inodes())),
                        RedisKeys.bytes(RedisKeys.USED_BYTES), RedisKeys.bytes(Long.toString(counters.usedBytes()))));
                if (!summary.settings().isEmpty()) {
                    Map<byte[], byte[]> settings = new LinkedHashMap<>();
                    for (Map.Entry<String, String> setting : summary.settings().entrySet()) {
                        settings.put(RedisKeys.bytes(storable(setting.getKey(), "setting")),
                                RedisKeys.bytes(storable(setting.getValue(), "setting")));
                    }
                    pipeline.hset(RedisKeys.bytes(RedisKeys.SETTINGS), settings);
                }
                pipeline.hdel(RedisKeys.bytes(RedisKeys.SETTINGS), RedisKeys.bytes(LOADING));
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

    /** An l&lt;ino&gt; member: the parent as 20 digits, '/', the name (see {@link RedisKeys}). */
    private static byte[] linkMember(long parent, String name) {
        return RedisKeys.bytes(String.format("%020d/%s", parent, name));
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }
}
