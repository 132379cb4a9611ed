package io.strata.cli;

import io.strata.client.Caller;
import io.strata.client.StrataFileSystem;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.OptionsLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code strata fsck} on a real SQLite volume over a local directory, written through
 * {@link StrataFileSystem} and then broken on purpose with SQL on the database file.
 */
class FsckCommandTest {
    private static final Caller ROOT = new Caller(0, 0);

    @TempDir
    Path dir;
    private Path source;
    private Path db;
    private String metaUrl;

    @BeforeEach
    void makeVolume() throws IOException {
        source = Files.createDirectories(dir.resolve("source"));
        db = dir.resolve("meta.db");
        metaUrl = "sqlite://" + db;
        var options = new OptionsLoader(OptionRegistry.load())
                .set("meta", metaUrl, "test")
                .set("state_dir", dir.resolve("state").toString(), "test")
                .build();
        try (StrataFileSystem fs = StrataFileSystem.open(source.toUri(), options)) {
            fs.mkdir("/docs", 0755, ROOT);
            fs.mkdir("/docs/sub", 0755, ROOT);
            write(fs, "/docs/a.txt", "hello");
            write(fs, "/docs/b.txt", "another file");
            fs.link("/docs/a.txt", "/hard");
        }
    }

    private static void write(StrataFileSystem fs, String path, String text) throws IOException {
        long fh = fs.create(path, 0644, ROOT);
        fs.write(fh, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        fs.release(fh);
    }

    /** Runs SQL on the volume's database file, as damage from outside would. */
    private void breakWith(String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.executeUpdate(sql);
            }
        }
    }

    private long ino(String parentName, String name) throws SQLException {
        String parent = parentName == null ? "1"
                : "(SELECT ino FROM dentries WHERE parent = 1 AND name = '" + parentName + "')";
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(
                        "SELECT ino FROM dentries WHERE parent = " + parent + " AND name = '" + name + "'")) {
            assertTrue(row.next(), "no entry " + name);
            return row.getLong(1);
        }
    }

    private Cli.Result fsck(String... extra) {
        String[] args = new String[extra.length + 2];
        args[0] = "fsck";
        args[1] = metaUrl;
        System.arraycopy(extra, 0, args, 2, extra.length);
        return Cli.run(args);
    }

    /** Repairs, says so, and a second check is clean. */
    private Cli.Result repairThenClean(String expectedRepair) {
        Cli.Result repaired = fsck("--repair");
        assertEquals(ExitCodes.OK, repaired.exitCode(), repaired::toString);
        assertTrue(repaired.out().contains("repaired: " + expectedRepair), repaired::toString);
        Cli.Result again = fsck();
        assertEquals(ExitCodes.OK, again.exitCode(), again::toString);
        assertTrue(again.out().contains("clean: no problems found"), again::toString);
        return repaired;
    }

    @Test
    void sessionDataThatNoLinkNamesIsFoundAndDeleted() throws IOException {
        // What a sweep cut short leaves: a dead session's data whose link it had removed.
        Path session = Files.createDirectories(source.resolve(".strata/sessions/0f1e2d3c-swept"));
        Files.writeString(session.resolve("77_0_"), "left behind");

        Cli.Result result = fsck();

        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("session-leftover  /.strata/sessions/0f1e2d3c-swept/77_0_: 11 bytes in "),
                result::toString);
        assertTrue(Files.exists(session.resolve("77_0_")), "a dry run deletes nothing");
        repairThenClean("delete it from the under storage");
        assertFalse(Files.exists(session), "the swept session's directory, emptied");
    }

    @Test
    void aLiveSessionsKeptFileIsNoLeftover() throws IOException {
        var options = new OptionsLoader(OptionRegistry.load())
                .set("meta", metaUrl, "test")
                .set("state_dir", dir.resolve("state").toString(), "test")
                .build();
        try (StrataFileSystem fs = StrataFileSystem.open(source.toUri(), options)) {
            long fh = fs.create("/kept.txt", 0644, ROOT);
            fs.write(fh, ByteBuffer.wrap("open".getBytes(StandardCharsets.UTF_8)), 0);
            fs.flush(fh);
            fs.unlink("/kept.txt"); // kept for the open handle, under the session's directory

            Cli.Result result = fsck();

            assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
            assertTrue(result.out().contains("clean: no problems found"), result::toString);
            fs.release(fh);
        }
    }

    @Test
    void healthyVolumeIsClean() {
        Cli.Result result = fsck();
        assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
        assertTrue(result.out().contains("clean: no problems found"), result::toString);
        assertTrue(result.out().contains("2 files in " + source.toUri().toString().replaceAll("/$", "")),
                result::toString);
    }

    @Test
    void wrongFileNlinkIsFoundAndRepaired() throws SQLException {
        breakWith("UPDATE inodes SET nlink = 5 WHERE ino = " + ino("docs", "a.txt"));
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("nlink  /docs/a.txt"), result::toString);
        assertTrue(result.out().contains("nlink is 5, but 2 names link it"), result::toString);
        repairThenClean("set nlink to 2");
    }

    @Test
    void wrongDirectoryNlinkIsFoundAndRepaired() throws SQLException {
        breakWith("UPDATE inodes SET nlink = 9 WHERE ino = " + ino(null, "docs"));
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("nlink  /docs "), result::toString);
        repairThenClean("set nlink to 3");
    }

    @Test
    void primaryLinkToNoneOfItsNamesIsFoundAndRepaired() throws SQLException {
        breakWith("UPDATE inodes SET name = 'gone' WHERE ino = " + ino("docs", "b.txt"));
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("primary-link  /docs/b.txt"), result::toString);
        repairThenClean("make entry 'b.txt' of directory " + ino(null, "docs") + " its primary link");
    }

    @Test
    void entryWithoutInodeIsFoundAndRemoved() throws SQLException {
        breakWith("INSERT INTO dentries (parent, name, ino, type) VALUES (" + ino(null, "docs")
                + ", 'ghost', 4242, 32768)");
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("dangling-entry  /docs/ghost  (inode 4242)"), result::toString);
        repairThenClean("remove the entry");
    }

    @Test
    void inodeWithoutNameIsFoundAndRemoved() throws SQLException {
        long b = ino("docs", "b.txt");
        breakWith("DELETE FROM dentries WHERE ino = " + b);
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("orphan  (unreachable; primary link: entry 'b.txt'"), result::toString);
        assertTrue(result.out().contains("inode " + b + " (file of 12 bytes, nlink 1) has no name"), result::toString);
        repairThenClean("remove the inode (attributes and xattrs); the under storage is left as it is");
        assertTrue(Files.exists(source.resolve("docs/b.txt")), "the data stays");
    }

    @Test
    void wrongCountersAreFoundAndRepaired() throws SQLException {
        breakWith("UPDATE counters SET value = value + 7 WHERE name = 'inodes'",
                "UPDATE counters SET value = 1 WHERE name = 'used_bytes'");
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("inode-count  (volume): the inode counter says"), result::toString);
        assertTrue(result.out().contains("used-bytes  (volume): the used-bytes counter says 1, the files hold 17"),
                result::toString);
        repairThenClean("set the counters to what remains after the repairs");
    }

    @Test
    void missingUnderStorageFileIsReportedAndNotRepaired() throws IOException {
        Files.delete(source.resolve("docs/a.txt"));
        Cli.Result result = fsck("--repair");
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("ufs-missing  /docs/a.txt"), result::toString);
        assertTrue(result.out().contains("not repairable by fsck"), result::toString);
    }

    @Test
    void underStorageFileOfAnotherSizeIsReported() throws IOException {
        Files.writeString(source.resolve("docs/b.txt"), "changed behind Strata's back");
        Cli.Result result = fsck();
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("ufs-mismatch  /docs/b.txt"), result::toString);
        assertTrue(result.out().contains("the inode records 12 bytes, the under storage holds 28"), result::toString);
    }

    @Test
    void jsonReportListsEachProblem() throws SQLException {
        breakWith("UPDATE inodes SET nlink = 5 WHERE ino = " + ino("docs", "a.txt"));
        Cli.Result result = fsck("--json");
        assertEquals(ExitCodes.PROBLEMS, result.exitCode(), result::toString);
        assertTrue(result.out().contains("\"kind\" : \"nlink\""), result::toString);
        assertTrue(result.out().contains("\"path\" : \"/docs/a.txt\""), result::toString);
        assertTrue(result.out().contains("\"remaining\" : 1"), result::toString);
    }
}
