package io.strata.meta.redis;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.Names;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeFormat;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;
import io.strata.meta.fsck.FsckTarget;
import io.strata.meta.redis.RedisScripts.Script;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The Redis {@link MetaStore} engine ({@code redis://host:port/db}, {@code rediss://} for TLS), for
 * volumes that many clients share.
 *
 * <p>The key schema is the header of {@link RedisKeys}. Every change is one Lua script
 * ({@link RedisScripts}), so it is atomic without WATCH retries; reads of independent keys go out
 * as one MULTI/EXEC pipeline (one round trip, one consistent view), a directory page as a script
 * (the check, the range of names and their entries together). Connections come from a pool
 * ({@link JedisPooled}); {@link RedisInodeNumbers} hands out inode numbers in batches.
 */
public final class RedisMetaStore implements MetaStore {
    private static final int POOL_SIZE = 16;
    private static final Duration POOL_WAIT = Duration.ofSeconds(10);
    /** Deeper than any path the kernel can pass; reaching it means the parent chain has a cycle. */
    private static final int MAX_DEPTH = 1 << 16;

    private final JedisPooled jedis;
    private final String where;
    private final RedisScripts scripts;
    private final RedisInodeNumbers inodeNumbers;
    private volatile boolean closed;

    private RedisMetaStore(JedisPooled jedis, String where) {
        this.jedis = jedis;
        this.where = where;
        this.scripts = new RedisScripts(jedis, where);
        this.inodeNumbers = new RedisInodeNumbers(jedis);
    }

    /**
     * Connects to the database {@code url} names, formatting it as a new volume if it is empty.
     * The password comes from the URL, else from the environment variable
     * {@value MetaStoreUrls#PASSWORD_ENV}.
     *
     * @throws IllegalArgumentException for a malformed URL
     * @throws IOException if the server cannot be reached or the database is not a volume this build reads
     */
    public static RedisMetaStore open(String url) throws IOException {
        return open(url, System::getenv);
    }

    /** {@link #open(String)} with the environment given, for tests. */
    static RedisMetaStore open(String url, Function<String, String> environment) throws IOException {
        RedisUrl parsed = RedisUrl.parse(url, environment);
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(POOL_SIZE);
        pool.setMaxIdle(POOL_SIZE);
        pool.setMinIdle(0);
        pool.setMaxWait(POOL_WAIT);
        pool.setJmxEnabled(false);
        RedisMetaStore store;
        try {
            store = new RedisMetaStore(new JedisPooled(parsed.hostAndPort(), parsed.clientConfig(), pool),
                    parsed.describe());
        } catch (JedisException e) {
            throw new IOException("cannot open metastore " + parsed.describe() + ": " + e.getMessage(), e);
        }
        try {
            store.format();
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** Formats an empty database as a volume, or checks the format version of an existing one. */
    private void format() throws IOException {
        long nowNs = System.currentTimeMillis() * 1_000_000L;
        Inode root = new Inode(Inode.ROOT, InodeType.DIRECTORY, 0755, 0, 0, nowNs, nowNs, nowNs, 2, 0, 0,
                Inode.ROOT, "", null, Inode.NEVER_SYNCED);
        List<Object> stored = call(() -> {
            scripts.load();
            return scripts.run(Script.FORMAT, VolumeFormat.VERSION, RedisKeys.SCHEMA,
                    RedisCodec.pack(root, null, false));
        }, "cannot be opened");
        String version = RedisCodec.string(stored.get(0));
        VolumeFormat.check(version.isEmpty() ? Optional.empty() : Optional.of(version), where);
        checkSchema(RedisCodec.string(stored.get(1)), where);
    }

    /**
     * Refuses a volume of another Redis schema than {@link RedisKeys#SCHEMA}: an older one (no
     * schema key: an inode as a hash of fields) with what to do about it, a newer one as newer.
     */
    static void checkSchema(String stored, String where) throws IOException {
        if (stored.isEmpty()) {
            throw new IOException(where + " is a Strata volume of Redis schema 1 (an inode as a hash of fields),"
                    + " which this Strata does not read: it keeps an inode as one packed value (Redis schema "
                    + RedisKeys.SCHEMA + "). Dump the volume with the Strata that wrote it (strata dump), then load"
                    + " the dump into an empty database with this one (strata load)");
        }
        VolumeFormat.checkVersion("Redis schema", stored, RedisKeys.SCHEMA, where,
                ": dump it with the Strata that wrote it and load the dump with this one");
    }

    @Override
    public Inode getInode(long ino) throws IOException {
        return call(() -> {
            byte[] packed = jedis.get(RedisKeys.bytes(RedisKeys.inode(ino)));
            if (packed == null) {
                throw FsException.notFound("inode " + ino);
            }
            return RedisCodec.inode(ino, packed);
        });
    }

    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        requireNonNull(name, "name is null");
        return call(() -> {
            Response<String> type;
            Response<String> entry;
            try (AbstractTransaction batch = jedis.multi()) {
                type = batch.getrange(RedisKeys.inode(parent), RedisCodec.TYPE, RedisCodec.TYPE);
                entry = batch.hget(RedisKeys.entries(parent), name);
                batch.exec();
            }
            checkDirectory(type.get(), parent);
            return entry.get() == null ? Optional.empty() : Optional.of(RedisCodec.dentry(parent, name, entry.get()));
        });
    }

    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        String min = after == null ? "-" : "(" + after;
        return call(() -> {
            List<Object> page = scripts.run(Script.READDIR, dir, min, limit);
            List<Dentry> entries = new ArrayList<>(page.size() / 2);
            for (int i = 0; i + 1 < page.size(); i += 2) {
                entries.add(RedisCodec.dentry(dir, RedisCodec.string(page.get(i)), RedisCodec.string(page.get(i + 1))));
            }
            return entries;
        });
    }

    @Override
    public Inode create(long parent, String name, NewInode spec) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(spec, "spec is null");
        return call(() -> {
            long syncedNs = spec.type() == InodeType.DIRECTORY ? spec.timeNs() : Inode.NEVER_SYNCED;
            Inode inode = Inode.fromSpec(inodeNumbers.next(), parent, name, spec, syncedNs);
            scripts.run(Script.CREATE, parent, name, inode.ino(), RedisCodec.letter(inode.type()), inode.size(),
                    RedisCodec.u64(spec.timeNs()), RedisCodec.pack(inode, spec.symlinkTarget(), false));
            return inode;
        });
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return call(() -> RedisCodec.inode(ino, scripts.run(Script.LINK, ino, parent, name, RedisCodec.u64(nowNs)).get(0)));
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return call(() -> removedLink(scripts.run(Script.UNLINK, parent, name, RedisCodec.u64(nowNs)), nowNs));
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        requireNonNull(name, "name is null");
        return call(() -> {
            List<Object> reply = scripts.run(Script.RMDIR, parent, name, RedisCodec.u64(nowNs));
            return gone(RedisCodec.inode(number(reply.get(0)), reply.get(1)), nowNs);
        });
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        requireNonNull(srcName, "srcName is null");
        requireNonNull(dstName, "dstName is null");
        return call(() -> {
            List<Object> reply = scripts.run(Script.RENAME, srcParent, srcName, dstParent, dstName,
                    RedisCodec.u64(nowNs), MAX_DEPTH);
            Inode moved = RedisCodec.inode(number(reply.get(0)), reply.get(2));
            List<?> replaced = (List<?>) reply.get(3);
            return new Renamed(moved, flag(reply.get(1)),
                    replaced.isEmpty() ? Optional.empty() : Optional.of(removedLink(replaced, nowNs)));
        });
    }

    @Override
    public Inode setAttr(long ino, SetAttr change) throws IOException {
        requireNonNull(change, "change is null");
        if (change.mode() != null && (change.mode() & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: 0" + Integer.toOctalString(change.mode()));
        }
        if (change.size() != null && change.size() < 0) {
            throw new FsException(FsError.EINVAL, "negative size " + change.size());
        }
        return call(() -> RedisCodec.inode(ino, scripts.run(Script.SETATTR, ino,
                optional(change.mode(), RedisCodec::u32),
                optional(change.uid(), RedisCodec::u32),
                optional(change.gid(), RedisCodec::u32),
                optional(change.size(), RedisCodec::u64),
                optional(change.atimeNs(), RedisCodec::u64),
                optional(change.mtimeNs(), RedisCodec::u64),
                optional(change.ufsVersion(), RedisKeys::bytes),
                RedisCodec.u64(change.ctimeNs())).get(0)));
    }

    @Override
    public String readlink(long ino) throws IOException {
        return call(() -> {
            byte[] packed = jedis.get(RedisKeys.bytes(RedisKeys.inode(ino)));
            if (packed == null) {
                throw FsException.notFound("inode " + ino);
            }
            if (packed[RedisCodec.TYPE] != 'l') {
                throw new FsException(FsError.EINVAL, "not a symlink: inode " + ino);
            }
            return RedisCodec.target(packed);
        });
    }

    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        return call(() -> {
            Response<Boolean> exists;
            Response<byte[]> value;
            try (AbstractTransaction batch = jedis.multi()) {
                exists = batch.exists(RedisKeys.inode(ino));
                value = batch.hget(RedisKeys.bytes(RedisKeys.xattrs(ino)), RedisKeys.bytes(name));
                batch.exec();
            }
            if (!exists.get()) {
                throw FsException.notFound("inode " + ino);
            }
            return Optional.ofNullable(value.get());
        });
    }

    @Override
    public void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        requireNonNull(mode, "mode is null");
        String flag = switch (mode) {
            case UPSERT -> "u";
            case CREATE -> "c";
            case REPLACE -> "r";
        };
        byte[] copy = value.clone();
        call(() -> scripts.run(Script.SETXATTR, ino, name, copy, flag));
    }

    @Override
    public List<String> listXattrs(long ino) throws IOException {
        return call(() -> {
            Response<Boolean> exists;
            Response<Set<String>> names;
            try (AbstractTransaction batch = jedis.multi()) {
                exists = batch.exists(RedisKeys.inode(ino));
                names = batch.hkeys(RedisKeys.xattrs(ino));
                batch.exec();
            }
            if (!exists.get()) {
                throw FsException.notFound("inode " + ino);
            }
            List<String> sorted = new ArrayList<>(names.get());
            sorted.sort(Names.ORDER); // a handful per inode: sorted here rather than kept sorted
            return sorted;
        });
    }

    @Override
    public void removeXattr(long ino, String name) throws IOException {
        requireNonNull(name, "name is null");
        call(() -> scripts.run(Script.REMOVEXATTR, ino, name));
    }

    @Override
    public int mergeListing(long dir, List<ListedEntry> entries) throws IOException {
        requireNonNull(entries, "entries is null");
        List<ListedEntry> copy = List.copyOf(entries);
        return call(() -> {
            List<byte[]> args = strings(dir);
            long[] inos = inodeNumbers.take(copy.size()); // names already present leave gaps
            for (int i = 0; i < copy.size(); i++) {
                ListedEntry entry = copy.get(i);
                // a directory found in the listing has a listing of its own still to merge
                Inode inode = Inode.fromSpec(inos[i], dir, entry.name(), entry.spec(), Inode.NEVER_SYNCED);
                args.addAll(strings(entry.name(), inode.ino(), RedisCodec.letter(inode.type()), inode.size()));
                args.add(RedisCodec.pack(inode, entry.spec().symlinkTarget(), false));
            }
            return Math.toIntExact(number(scripts.run(Script.MERGE, args).get(0)));
        });
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        call(() -> scripts.run(Script.MARKSYNCED, dir, RedisCodec.u64(syncedNs)));
    }

    @Override
    public VolumeStats stats() throws IOException {
        return call(() -> {
            List<String> counters = jedis.hmget(RedisKeys.COUNTERS, RedisKeys.INODES, RedisKeys.USED_BYTES);
            if (counters.contains(null)) {
                throw new IOException("corrupt metastore " + where + ": counters are missing");
            }
            return new VolumeStats(Long.parseLong(counters.get(0)), Long.parseLong(counters.get(1)));
        });
    }

    @Override
    public Optional<String> getSetting(String key) throws IOException {
        requireNonNull(key, "key is null");
        return call(() -> Optional.ofNullable(jedis.hget(RedisKeys.SETTINGS, key)));
    }

    @Override
    public void putSetting(String key, String value) throws IOException {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        VolumeFormat.checkWritable(key);
        call(() -> jedis.hset(RedisKeys.SETTINGS, key, value));
    }

    /** Directory pages each read by one script, several in flight; see {@link RedisDumpSource}. */
    @Override
    public DumpSource dumpSource() throws IOException {
        return call(() -> new RedisDumpSource(jedis, where));
    }

    /** Batches as pipelines, several in flight; see {@link RedisLoadTarget}. */
    @Override
    public LoadTarget loadTarget() throws IOException {
        return call(() -> new RedisLoadTarget(jedis, where));
    }

    /** A scan and raw repairs over the store's pool; see {@link RedisFsck}. */
    @Override
    public FsckTarget fsckTarget() {
        return new RedisFsck(jedis, where);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            jedis.close();
        }
    }

    @Override
    public String toString() {
        return "RedisMetaStore[" + where + "]";
    }

    // --- helpers

    private <T> T call(Call<T> call) throws IOException {
        return call(call, "failed");
    }

    /** Runs a call, turning the client's failures into IOExceptions that name the server but never the password. */
    private <T> T call(Call<T> call, String what) throws IOException {
        if (closed) {
            throw new IOException("metastore " + where + " is closed");
        }
        try {
            return call.run();
        } catch (JedisException e) {
            throw new IOException("metastore " + where + " " + what + ": " + e.getMessage(), e);
        }
    }

    /** A RemovedLink from a script's {ino, was_primary, deleted, packed inode} reply. */
    private static RemovedLink removedLink(List<?> reply, long nowNs) throws IOException {
        Inode inode = RedisCodec.inode(number(reply.get(0)), reply.get(3));
        return new RemovedLink(flag(reply.get(2)) ? gone(inode, nowNs) : inode, flag(reply.get(1)));
    }

    /** The inode as it was when its last link went: nlink 0, ctime now. */
    private static Inode gone(Inode inode, long nowNs) {
        return new Inode(inode.ino(), inode.type(), inode.mode(), inode.uid(), inode.gid(), inode.atimeNs(),
                inode.mtimeNs(), nowNs, 0, inode.size(), inode.rdev(), inode.parent(), inode.name(),
                inode.ufsVersion(), inode.syncedNs());
    }

    /** type: the first byte of the inode's value, "" if it has none (GETRANGE of a missing key). */
    private static void checkDirectory(String type, long ino) throws FsException {
        if (type == null || type.isEmpty()) {
            throw FsException.notFound("inode " + ino);
        }
        if (!type.equals("d")) {
            throw new FsException(FsError.ENOTDIR, "inode " + ino);
        }
    }

    /** A setattr argument: '-' keeps the field (null), '+' and the value's encoding change it. */
    private static <T> byte[] optional(T field, Function<T, byte[]> encoding) {
        if (field == null) {
            return RedisKeys.bytes("-");
        }
        byte[] value = encoding.apply(field);
        byte[] change = new byte[value.length + 1];
        change[0] = '+';
        System.arraycopy(value, 0, change, 1, value.length);
        return change;
    }

    private static List<byte[]> strings(Object... values) {
        List<byte[]> bytes = new ArrayList<>(values.length);
        for (Object value : values) {
            bytes.add(RedisKeys.bytes(String.valueOf(value)));
        }
        return bytes;
    }

    private static long number(Object reply) throws IOException {
        try {
            return reply instanceof Long n ? n : Long.parseLong(RedisCodec.string(reply));
        } catch (NumberFormatException e) {
            throw new IOException("corrupt metastore reply: '" + RedisCodec.string(reply) + "' is not a number", e);
        }
    }

    private static boolean flag(Object reply) {
        return "1".equals(RedisCodec.string(reply));
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }
}
