package io.strata.meta.redis;

import redis.clients.jedis.UnifiedJedis;

import static java.util.Objects.requireNonNull;

/**
 * Hands out inode numbers from the volume's {@code counters.next_inode}, taking them from the
 * server {@value #BATCH} at a time so that most creates cost no extra round trip. Numbers are
 * never reused; those a client took but did not use are skipped for good.
 */
final class RedisInodeNumbers {
    static final int BATCH = 100;

    private final UnifiedJedis jedis;
    private long next;
    private long last = -1;

    RedisInodeNumbers(UnifiedJedis jedis) {
        this.jedis = requireNonNull(jedis, "jedis is null");
    }

    /** One new inode number. */
    synchronized long next() {
        if (next > last) {
            last = jedis.hincrBy(RedisKeys.COUNTERS, RedisKeys.NEXT_INODE, BATCH);
            next = last - BATCH + 1;
        }
        return next++;
    }

    /** {@code count} new inode numbers, in one round trip unless the batch at hand has them. */
    synchronized long[] take(int count) {
        long[] numbers = new long[count];
        if (count > 0 && last - next + 1 < count) {
            long top = jedis.hincrBy(RedisKeys.COUNTERS, RedisKeys.NEXT_INODE, count);
            for (int i = 0; i < count; i++) {
                numbers[i] = top - count + 1 + i;
            }
            return numbers;
        }
        for (int i = 0; i < count; i++) {
            numbers[i] = next++;
        }
        return numbers;
    }
}
