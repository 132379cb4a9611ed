package io.strata.meta.jdbc;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.AbstractMetaStoreTest;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the conformance suite against SQLite files, plus what only a persistent engine does. */
final class SqliteMetaStoreTest extends AbstractMetaStoreTest {
    @TempDir
    Path dir;

    @Override
    protected MetaStore createStore() throws IOException {
        return MetaStores.open("sqlite://" + database());
    }

    private Path database() {
        return dir.resolve("volume/meta.db");
    }

    @Test
    void openCreatesParentDirectoriesAndFile() {
        assertTrue(Files.isRegularFile(database()));
    }

    @Test
    void dataSurvivesCloseAndReopen() throws IOException {
        Inode dir = mkdir(Inode.ROOT, "d");
        Inode file = file(dir.ino(), "f", 123);
        store.link(file.ino(), Inode.ROOT, "g", tick());
        store.create(Inode.ROOT, "l", NewInode.symlink("d/f", 0, 0, tick()));
        store.setXattr(file.ino(), "user.k", new byte[] {1, 2}, XattrMode.UPSERT);
        store.putSetting("ufs_uri", "file:///data");
        Inode fileBefore = store.getInode(file.ino());
        Inode rootBefore = store.getInode(Inode.ROOT);
        store.close();

        store = createStore();
        assertEquals(fileBefore, store.getInode(file.ino()));
        assertEquals(rootBefore, store.getInode(Inode.ROOT));
        assertEquals(2, store.getInode(file.ino()).nlink());
        assertEquals(dir.ino(), store.lookup(Inode.ROOT, "d").orElseThrow().ino());
        assertEquals(file.ino(), store.lookup(dir.ino(), "f").orElseThrow().ino());
        assertEquals("d/f", store.readlink(store.lookup(Inode.ROOT, "l").orElseThrow().ino()));
        assertArrayEquals(new byte[] {1, 2}, store.getXattr(file.ino(), "user.k").orElseThrow());
        assertEquals(Optional.of("file:///data"), store.getSetting("ufs_uri"));
        assertEquals(new VolumeStats(4, 123), store.stats());
        assertTrue(store.create(Inode.ROOT, "new", NewInode.file(0644, 0, 0, tick())).ino() > 4,
                "inode numbers continue after reopen");
    }

    @Test
    void databaseUsesWriteAheadLog() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database());
                Statement statement = connection.createStatement();
                ResultSet mode = statement.executeQuery("PRAGMA journal_mode")) {
            assertTrue(mode.next());
            assertEquals("wal", mode.getString(1));
        }
    }

    @Test
    void twoHandlesOnOneFileSeeEachOthersChanges() throws IOException {
        try (MetaStore other = createStore()) {
            long dir = mkdir(Inode.ROOT, "d").ino();
            other.create(dir, "f", NewInode.file(0644, 0, 0, tick()));
            assertTrue(store.lookup(dir, "f").isPresent());
            assertEquals(new VolumeStats(3, 0), other.stats());
        }
    }

    @Test
    @Timeout(60)
    void concurrentCreatesThroughTwoHandlesHaveOneWinner() throws Exception {
        // two handles are two connections, as two processes sharing the file would have
        try (MetaStore other = createStore()) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int i = 0; i < 50; i++) {
                    String name = "n" + i;
                    List<Future<Boolean>> results = new ArrayList<>();
                    for (MetaStore handle : List.of(store, other)) {
                        results.add(pool.submit(() -> createdOrTaken(handle, name)));
                    }
                    int winners = 0;
                    for (Future<Boolean> result : results) {
                        winners += result.get() ? 1 : 0;
                    }
                    assertEquals(1, winners, "winners of " + name);
                }
            } finally {
                pool.shutdownNow();
            }
        }
        assertEquals(new VolumeStats(51, 0), store.stats());
    }

    private boolean createdOrTaken(MetaStore handle, String name) throws IOException {
        try {
            handle.create(Inode.ROOT, name, NewInode.file(0644, 0, 0, tick()));
            return true;
        } catch (FsException e) {
            assertEquals(FsError.EEXIST, e.error());
            return false;
        }
    }

    @Test
    void newerFormatVersionIsRefused() throws IOException, SQLException {
        store.close();
        execute("UPDATE settings SET value = '99' WHERE key = 'format_version'");
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("format version 99"), failure.getMessage());
        execute("UPDATE settings SET value = '1' WHERE key = 'format_version'");
        store = createStore(); // the refused open changed nothing
    }

    @Test
    void databaseWithoutFormatVersionIsRefused() throws IOException, SQLException {
        store.close();
        execute("DELETE FROM settings");
        IOException failure = assertThrows(IOException.class, this::createStore);
        assertTrue(failure.getMessage().contains("not a Strata metastore"), failure.getMessage());
        execute("INSERT INTO settings (key, value) VALUES ('format_version', '1')");
        store = createStore();
    }

    /**
     * Another process that opens the database and closes it while this store is open must not
     * take itself for the last connection: that one checkpoints and deletes the write-ahead log,
     * and this store's later commits would go to a deleted file. A prefetch that read the file
     * through a descriptor of its own dropped, at that descriptor's close, the shared lock that
     * tells other processes this one is there.
     */
    @Test
    @Timeout(60)
    void anotherProcessClosingTheDatabaseAfterAPrefetchLeavesTheStoresLog() throws Exception {
        mkdir(Inode.ROOT, "before");
        Path log = Path.of(database() + "-wal");
        assertTrue(Files.exists(log), "a write-ahead log to keep");

        store.prefetch();
        OtherProcess.run(database());

        assertTrue(Files.exists(log), "the other process deleted the write-ahead log under the open store");
        Inode after = mkdir(Inode.ROOT, "after");
        store.close();
        store = createStore();
        assertEquals(after.ino(), store.lookup(Inode.ROOT, "after").orElseThrow().ino());
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database());
                Statement statement = connection.createStatement();
                ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
            assertTrue(check.next());
            assertEquals("ok", check.getString(1));
        }
    }

    /** A JVM of its own that reads the database once and closes it, as a second mount or a {@code strata dump} would. */
    public static final class OtherProcess {
        static void run(Path database) throws IOException, InterruptedException {
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), OtherProcess.class.getName(), database.toString())
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            assertEquals(0, process.waitFor(), output);
        }

        public static void main(String[] args) throws SQLException {
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + args[0]);
                    Statement statement = connection.createStatement();
                    ResultSet count = statement.executeQuery("SELECT count(*) FROM inodes")) {
                count.next();
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database());
                Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }
}
