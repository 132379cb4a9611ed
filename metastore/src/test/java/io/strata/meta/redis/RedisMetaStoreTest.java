package io.strata.meta.redis;

import io.strata.meta.MetaStoreUrls;
import io.strata.meta.AbstractSharedMetaStoreTest;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import io.strata.meta.RedisTestServer;
import io.strata.meta.TestServers;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the conformance and shared-volume suites against Redis, an emptied database per test,
 * plus what only this engine does.
 */
@ExtendWith(TestServers.class)
final class RedisMetaStoreTest extends AbstractSharedMetaStoreTest {
    private String url;

    @Override
    protected MetaStore createStore() throws IOException {
        if (url == null) {
            url = TestServers.redis().freshVolume();
        }
        return MetaStores.open(url);
    }

    @Test
    void keysFollowTheSchemaInRedisKeys() throws IOException {
        long dir = mkdir(Inode.ROOT, "d").ino();
        long file = file(dir, "f", 5).ino();
        store.link(file, Inode.ROOT, "g", tick());
        store.setXattr(file, "user.k", new byte[] {7}, XattrMode.UPSERT);
        try (Jedis jedis = TestServers.redis().client()) {
            assertEquals(Set.of("setting", "schema", "counters", "i1", "d1", "n1", "i" + dir, "d" + dir, "n" + dir,
                    "i" + file, "x" + file, "l" + file), jedis.keys("*"));
            assertEquals("2", jedis.get("schema"));
            assertEquals("d" + dir, jedis.hget("d1", "d"));
            assertEquals("f" + file, jedis.hget("d" + dir, "f"));
            assertEquals(List.of("d", "g"), jedis.zrangeByLex("n1", "-", "+"));
            assertEquals(List.of("00000000000000000001/g", String.format("%020d/f", dir)),
                    jedis.zrangeByLex("l" + file, "-", "+"));
            byte[] packed = jedis.get(RedisKeys.bytes("i" + file));
            assertEquals(store.getInode(file), RedisCodec.inode(file, packed));
            assertEquals(2, RedisCodec.inode(file, packed).nlink());
            assertTrue(RedisCodec.hasXattrs(packed), "an inode with xattrs is flagged");
            assertEquals(Map.of("inodes", "3", "used_bytes", "5"),
                    Map.of("inodes", jedis.hget("counters", "inodes"), "used_bytes", jedis.hget("counters", "used_bytes")));
            store.unlink(Inode.ROOT, "g", tick());
            assertFalse(jedis.exists("l" + file), "a single name needs no link set");
        }
    }

    @Test
    void scriptsAreLoadedAgainAfterTheServerForgetsThem() throws IOException {
        try (Jedis jedis = TestServers.redis().client()) {
            jedis.scriptFlush();
        }
        file(Inode.ROOT, "f");
        assertTrue(store.lookup(Inode.ROOT, "f").isPresent());
    }

    @Test
    void databaseWithOtherKeysIsRefused() throws IOException {
        store.close();
        try (Jedis jedis = TestServers.redis().client()) {
            jedis.flushDB();
            jedis.set("someone-else", "x");
        }
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("not a Strata metastore"), failure.getMessage());
        try (Jedis jedis = TestServers.redis().client()) {
            jedis.flushDB();
        }
        store = createStore();
    }

    @Test
    void newerFormatVersionIsRefused() throws IOException {
        store.close();
        try (Jedis jedis = TestServers.redis().client()) {
            jedis.hset("setting", "format_version", "99");
            IOException failure = assertThrows(IOException.class, this::createStore);
            assertTrue(failure.getMessage().contains("format version 99"), failure.getMessage());
            jedis.hset("setting", "format_version", "1");
        }
        store = createStore();
    }

    @Test
    void volumeOfTheOldHashLayoutIsRefusedWithWhatToDo() throws IOException {
        store.close();
        try (Jedis jedis = TestServers.redis().client()) {
            // what a Strata of Redis schema 1 wrote: no schema key, the root as a hash
            jedis.flushDB();
            jedis.hset("setting", "format_version", "1");
            jedis.hset("counters", Map.of("next_inode", "1", "inodes", "1", "used_bytes", "0"));
            jedis.hset("i1", Map.of("type", "d", "mode", "493", "nlink", "2", "parent", "1", "name", ""));
            IOException failure = assertThrows(IOException.class, this::createStore);
            assertTrue(failure.getMessage().contains("Redis schema 1"), failure.getMessage());
            assertTrue(failure.getMessage().contains("strata dump"), failure.getMessage());
            assertTrue(failure.getMessage().contains("strata load"), failure.getMessage());
            assertEquals("d", jedis.hget("i1", "type"), "the refused volume is left as it was");
            jedis.flushDB();
        }
        store = createStore();
    }

    @Test
    void aTruncatedSymlinkValueReadsAsACorruptMetastore() throws IOException {
        long link = store.create(Inode.ROOT, "l", NewInode.symlink("target", 0, 0, tick())).ino();
        try (Jedis jedis = TestServers.redis().client()) {
            byte[] key = RedisKeys.bytes("i" + link);
            byte[] packed = jedis.get(key);
            jedis.set(key, Arrays.copyOf(packed, RedisCodec.NAME + 6)); // cut inside the name
            IOException failure = assertThrows(IOException.class, () -> store.readlink(link));
            assertTrue(failure.getMessage().contains("corrupt metastore"), failure.getMessage());
            jedis.set(key, packed); // whole again, for the invariants checked after each test
        }
    }

    @Test
    void newerRedisSchemaIsRefused() throws IOException {
        store.close();
        try (Jedis jedis = TestServers.redis().client()) {
            jedis.set("schema", "3");
            IOException failure = assertThrows(IOException.class, this::createStore);
            assertTrue(failure.getMessage().contains("Redis schema 3, newer"), failure.getMessage());
            jedis.set("schema", "2");
        }
        store = createStore();
    }

    @Test
    void namesWithAnyByteSurviveTheScriptsThatRewriteThem() throws IOException {
        // the packed value's strings are length-prefixed: bytes a delimiter would have used are safe
        String odd = "a\u0000b\nc\u00ff\uD83D\uDE00";
        long file = file(Inode.ROOT, odd).ino();
        store.link(file, Inode.ROOT, "second", tick());
        store.unlink(Inode.ROOT, odd, tick()); // moves the primary link through Lua
        assertEquals("second", store.getInode(file).name());
        store.rename(Inode.ROOT, "second", Inode.ROOT, odd + odd, tick());
        assertEquals(odd + odd, store.getInode(file).name());
    }

    @Test
    void timesAndSizesBeyondWhatADoubleHoldsStayExact() throws IOException {
        long file = file(Inode.ROOT, "f").ino();
        long big = Long.MAX_VALUE - 1; // not a double
        store.setAttr(file, new SetAttr(null, null, null, big, -big, big, tick(), "v\u0000" + big));
        Inode inode = store.getInode(file);
        assertEquals(List.of(big, -big, big), List.of(inode.size(), inode.atimeNs(), inode.mtimeNs()));
        assertEquals("v\u0000" + big, inode.ufsVersion());
        assertEquals(big, store.stats().usedBytes());
        store.unlink(Inode.ROOT, "f", tick());
        assertEquals(0, store.stats().usedBytes());
    }

    @Test
    void wrongPasswordFailsWithoutShowingAnyPassword() {
        RedisTestServer server = TestServers.redis();
        assumeTrue(server.password() != null, "the server takes no password");
        String wrong = "wrong-" + server.password();
        URI uri = URI.create(url);
        String wrongUrl = "redis://:" + wrong + "@" + uri.getHost() + ":" + uri.getPort() + uri.getPath();
        IOException failure = assertThrows(IOException.class, () -> MetaStores.open(wrongUrl).close());
        assertFalse(failure.getMessage().contains(wrong), failure.getMessage());
        assertFalse(failure.getMessage().contains(server.password()), failure.getMessage());
        assertTrue(failure.getMessage().contains("redis://:***@"), failure.getMessage());
    }

    @Test
    void passwordComesFromTheEnvironmentWhenTheUrlHasNone() throws IOException {
        RedisTestServer server = TestServers.redis();
        URI uri = URI.create(url);
        String withoutPassword = "redis://" + uri.getHost() + ":" + uri.getPort() + uri.getPath();
        try (MetaStore other = RedisMetaStore.open(withoutPassword,
                Map.of(MetaStoreUrls.PASSWORD_ENV, String.valueOf(server.password()))::get)) {
            assertEquals(new VolumeStats(1, 0), other.stats());
        }
    }

    @Test
    void inodeNumbersOfTwoStoresNeverCollide() throws IOException {
        try (MetaStore other = createStore()) {
            long first = file(Inode.ROOT, "a").ino();
            long second = other.create(Inode.ROOT, "b", NewInode.file(0644, 0, 0, tick())).ino();
            long third = file(Inode.ROOT, "c").ino();
            assertEquals(Set.of(first, second, third).size(), 3);
        }
    }
}
