package io.strata.meta.redis;

import io.strata.meta.Inode;
import io.strata.meta.redis.RedisScripts.Script;
import io.strata.meta.fsck.FsckTarget;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * fsck's scan and repairs for the Redis engine (the keys are in the header of {@link RedisKeys}),
 * each repair one MULTI/EXEC.
 *
 * <p>Redis keeps no order of its inode keys, so the first {@link #inodes} call collects every
 * inode number with SCAN (8 bytes per inode) and sorts them; pages then read their packed
 * values with one MGET each. Moving a primary link rewrites the inode's value, one script
 * ({@code setprimary.lua}); a new nlink is one SETRANGE. A link repair also rebuilds the inode's name index {@code l<ino>}, which unlink
 * reads to move the primary link.
 */
final class RedisFsck implements FsckTarget {
    private static final int SCAN_COUNT = 1000;

    private final JedisPooled jedis;
    private final String where;
    private final RedisScripts scripts;
    private long[] numbers;

    RedisFsck(JedisPooled jedis, String where) {
        this.jedis = requireNonNull(jedis, "jedis is null");
        this.where = requireNonNull(where, "where is null");
        this.scripts = new RedisScripts(jedis, where);
    }

    @Override
    public List<Inode> inodes(long after, int limit) throws IOException {
        if (numbers == null) {
            numbers = call(this::scanNumbers);
        }
        int found = Arrays.binarySearch(numbers, after);
        int from = found >= 0 ? found + 1 : -found - 1;
        int to = Math.min(numbers.length, from + limit);
        if (from >= to) {
            return List.of();
        }
        byte[][] keys = new byte[to - from][];
        for (int i = from; i < to; i++) {
            keys[i - from] = RedisKeys.bytes(RedisKeys.inode(numbers[i]));
        }
        List<byte[]> values = call(() -> jedis.mget(keys));
        List<Inode> page = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) != null) { // removed since the scan
                page.add(RedisCodec.inode(numbers[from + i], values.get(i)));
            }
        }
        return page;
    }

    private long[] scanNumbers() {
        long[] found = new long[1024];
        int count = 0;
        ScanParams params = new ScanParams().match("i*").count(SCAN_COUNT);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> result = jedis.scan(cursor, params);
            for (String key : result.getResult()) {
                long ino;
                try {
                    ino = Long.parseLong(key, 1, key.length(), 10);
                } catch (NumberFormatException e) {
                    continue; // not an inode key
                }
                if (count == found.length) {
                    found = Arrays.copyOf(found, count * 2);
                }
                found[count++] = ino;
            }
            cursor = result.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        long[] sorted = Arrays.copyOf(found, count);
        Arrays.sort(sorted);
        return Arrays.stream(sorted).distinct().toArray(); // SCAN may return a key twice
    }

    @Override
    public void setLinks(long ino, int nlink, List<Link> names) throws IOException {
        call(() -> {
            try (AbstractTransaction batch = jedis.multi()) {
                batch.setrange(RedisKeys.bytes(RedisKeys.inode(ino)), RedisCodec.NLINK, RedisCodec.u32(nlink));
                batch.del(RedisKeys.links(ino));
                if (names.size() >= 2) { // absent at one name, as every change keeps it
                    for (Link name : names) {
                        batch.zadd(RedisKeys.links(ino), 0, RedisKeys.linkMember(name.parent(), name.name()));
                    }
                }
                batch.exec();
            }
            return null;
        });
    }

    @Override
    public void setPrimaryLink(long ino, Link primary) throws IOException {
        call(() -> scripts.run(Script.SETPRIMARY, ino, primary.parent(), primary.name()));
    }

    @Override
    public void removeEntry(long parent, String name) throws IOException {
        call(() -> {
            try (AbstractTransaction batch = jedis.multi()) {
                batch.hdel(RedisKeys.entries(parent), name);
                batch.zrem(RedisKeys.names(parent), name);
                batch.exec();
            }
            return null;
        });
    }

    @Override
    public void removeInode(long ino) throws IOException {
        call(() -> jedis.del(RedisKeys.inode(ino), RedisKeys.xattrs(ino), RedisKeys.entries(ino),
                RedisKeys.names(ino), RedisKeys.links(ino)));
    }

    @Override
    public void setCounters(long inodes, long usedBytes) throws IOException {
        call(() -> jedis.hset(RedisKeys.COUNTERS,
                Map.of(RedisKeys.INODES, Long.toString(inodes), RedisKeys.USED_BYTES, Long.toString(usedBytes))));
    }

    @Override
    public void close() {
        // the store's pool is the store's
    }

    private <T> T call(Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (JedisException e) {
            throw new IOException("fsck of " + where + " failed: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }
}
