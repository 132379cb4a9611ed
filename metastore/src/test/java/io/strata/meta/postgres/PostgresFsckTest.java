package io.strata.meta.postgres;

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

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fsck on a real PostgreSQL volume, broken with SQL on its tables. */
@ExtendWith(TestServers.class)
class PostgresFsckTest {
    private MetaStore store;
    private long dir;
    private long file;

    @BeforeEach
    void makeTree() throws IOException {
        store = MetaStores.open(TestServers.postgres().freshVolume());
        dir = store.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1)).ino();
        file = store.create(dir, "f", NewInode.file(0644, 0, 0, 2)).ino();
        store.setAttr(file, SetAttr.content(10, 5, "v1"));
        store.link(file, Inode.ROOT, "hard", 3);
        store.create(dir, "g", NewInode.file(0644, 0, 0, 4));
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection connection = TestServers.postgres().connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.executeUpdate(sql);
            }
        }
    }

    @Test
    void eachKindOfDamageIsFoundAndRepaired() throws IOException, SQLException {
        sql("UPDATE inodes SET nlink = 9 WHERE ino = " + file,
                "INSERT INTO dentries (parent, name, ino, type) VALUES (" + dir + ", 'ghost', 999999, 32768)",
                "DELETE FROM dentries WHERE parent = " + dir + " AND name = 'g'",
                "UPDATE counters SET used_bytes = used_bytes + 5 WHERE shard = 3");
        List<ProblemKind> kinds = Fsck.check(store, null, false).problems().stream().map(Problem::kind).toList();
        assertEquals(List.of(ProblemKind.DANGLING_ENTRY, ProblemKind.WRONG_NLINK, ProblemKind.ORPHAN_INODE,
                ProblemKind.WRONG_USED_BYTES), kinds);
        FsckReport repaired = Fsck.check(store, null, true);
        assertTrue(repaired.problems().stream().allMatch(Problem::repaired), repaired::toString);
        FsckReport again = Fsck.check(store, null, false);
        assertTrue(again.clean(), again::toString);
        assertEquals(3, store.stats().inodes(), "root, d and f remain");
        assertEquals(10, store.stats().usedBytes());
    }
}
