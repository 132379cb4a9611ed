package io.strata.meta.redis;

import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import io.strata.meta.TestServers;
import io.strata.meta.fsck.Fsck;
import io.strata.meta.fsck.FsckReport;
import io.strata.meta.fsck.Problem;
import io.strata.meta.fsck.ProblemKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fsck on a real Redis volume, broken with plain Redis commands on its keys (RedisKeys' schema). */
@ExtendWith(TestServers.class)
class RedisFsckTest {
    private MetaStore store;
    private long dir;
    private long file;
    private long other;

    @BeforeEach
    void makeTree() throws IOException {
        store = MetaStores.open(TestServers.redis().freshVolume());
        dir = store.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1)).ino();
        file = store.create(dir, "f", NewInode.file(0644, 0, 0, 2)).ino();
        store.setAttr(file, SetAttr.content(10, 5, "v1"));
        store.link(file, Inode.ROOT, "hard", 3);
        other = store.create(dir, "g", NewInode.file(0644, 0, 0, 4)).ino();
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    private static void redis(java.util.function.Consumer<Jedis> damage) {
        try (Jedis jedis = TestServers.redis().client()) {
            damage.accept(jedis);
        }
    }

    private List<ProblemKind> kinds() throws IOException {
        return Fsck.check(store, null, false).problems().stream().map(Problem::kind).toList();
    }

    private void repairThenClean() throws IOException {
        FsckReport repaired = Fsck.check(store, null, true);
        assertTrue(repaired.problems().stream().allMatch(Problem::repaired), repaired::toString);
        FsckReport again = Fsck.check(store, null, false);
        assertTrue(again.clean(), again::toString);
    }

    @Test
    void healthyVolumeIsClean() throws IOException {
        FsckReport report = Fsck.check(store, null, false);
        assertTrue(report.clean(), report::toString);
        assertEquals(4, report.inodes());
    }

    @Test
    void wrongNlinkIsRepairedWithItsNameIndex() throws IOException {
        redis(jedis -> {
            jedis.hset("i" + file, "nlink", "9");
            jedis.del("l" + file);
        });
        assertEquals(List.of(ProblemKind.WRONG_NLINK), kinds());
        repairThenClean();
        assertEquals(2, store.getInode(file).nlink());
        store.unlink(dir, "f", 10); // the primary link moves by the rebuilt index
        assertEquals(new Inode(file, store.getInode(file).type(), 0644, 0, 0, store.getInode(file).atimeNs(),
                store.getInode(file).mtimeNs(), store.getInode(file).ctimeNs(), 1, 10, 0, Inode.ROOT, "hard", "v1",
                Inode.NEVER_SYNCED), store.getInode(file));
    }

    @Test
    void danglingEntryIsFoundAndRemoved() throws IOException {
        redis(jedis -> {
            jedis.hset("d" + dir, "ghost", "f999999");
            jedis.zadd("n" + dir, 0, "ghost");
        });
        assertEquals(List.of(ProblemKind.DANGLING_ENTRY), kinds());
        repairThenClean();
    }

    @Test
    void orphanAndCountersAreFoundAndRepaired() throws IOException {
        redis(jedis -> {
            jedis.hdel("d" + dir, "g");
            jedis.zrem("n" + dir, "g");
            jedis.hset("counters", "used_bytes", "77");
        });
        assertEquals(List.of(ProblemKind.ORPHAN_INODE, ProblemKind.WRONG_USED_BYTES), kinds());
        repairThenClean();
        assertEquals(3, store.stats().inodes(), "root, d and f remain");
        assertEquals(10, store.stats().usedBytes());
        redis(jedis -> assertTrue(!jedis.exists("i" + other), "the orphan's hash is gone"));
    }

    @Test
    void primaryLinkToNoNameIsRepaired() throws IOException {
        redis(jedis -> jedis.hset("i" + other, "name", "nowhere"));
        assertEquals(List.of(ProblemKind.BAD_PRIMARY_LINK), kinds());
        repairThenClean();
        assertEquals("g", store.getInode(other).name());
    }
}
