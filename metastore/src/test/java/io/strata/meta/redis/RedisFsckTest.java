package io.strata.meta.redis;

import io.strata.meta.AbstractFsckTest;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.TestServers;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Runs the fsck conformance suite against a Redis volume (an emptied database), damaged with
 * plain Redis commands on its keys (the schema in {@link RedisKeys}). An inode's name index
 * {@code l<ino>} is a key of its own, so losing it is damage this engine can have.
 */
@ExtendWith(TestServers.class)
final class RedisFsckTest extends AbstractFsckTest {
    @Override
    protected MetaStore createStore() throws IOException {
        return MetaStores.open(TestServers.redis().freshVolume());
    }

    @Override
    protected Damage damage(MetaStore store) {
        return new Damage() {
            @Override
            public void setNlink(long ino, int nlink) {
                redis(jedis -> jedis.setrange(RedisKeys.bytes(RedisKeys.inode(ino)), RedisCodec.NLINK,
                        RedisCodec.u32(nlink)));
            }

            @Override
            public void forgetNames(long ino) {
                redis(jedis -> jedis.del(RedisKeys.links(ino)));
            }

            @Override
            public void setPrimaryLink(long ino, long parent, String name) {
                redis(jedis -> {
                    byte[] key = RedisKeys.bytes(RedisKeys.inode(ino));
                    jedis.set(key, RedisCodec.withPrimary(jedis.get(key), parent, name));
                });
            }

            @Override
            public void addEntry(long parent, String name, long ino, InodeType type) {
                redis(jedis -> {
                    jedis.hset(RedisKeys.entries(parent), name, RedisCodec.letter(type) + Long.toString(ino));
                    jedis.zadd(RedisKeys.names(parent), 0, name);
                });
            }

            @Override
            public void removeEntry(long parent, String name) {
                redis(jedis -> {
                    jedis.hdel(RedisKeys.entries(parent), name);
                    jedis.zrem(RedisKeys.names(parent), name);
                });
            }

            @Override
            public void setUsedBytes(long usedBytes) {
                redis(jedis -> jedis.hset(RedisKeys.COUNTERS, RedisKeys.USED_BYTES, Long.toString(usedBytes)));
            }

            @Override
            public void setInodeCount(long inodes) {
                redis(jedis -> jedis.hset(RedisKeys.COUNTERS, RedisKeys.INODES, Long.toString(inodes)));
            }
        };
    }

    private static void redis(Consumer<Jedis> damage) {
        try (Jedis jedis = TestServers.redis().client()) {
            damage.accept(jedis);
        }
    }
}
