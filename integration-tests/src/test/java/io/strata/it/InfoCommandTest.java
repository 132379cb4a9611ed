package io.strata.it;

import io.strata.cli.ExitCodes;
import io.strata.cli.StrataCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code strata info} through a real mount: the daemon's virtual user.strata.info attribute, read by the CLI. */
class InfoCommandTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path base;

    record Result(int exitCode, String out, String err) {}

    static Result strata(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = StrataCommand.commandLine(Map.of()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    @Test
    void infoShowsTheInodeItsLinksItsUnderStoragePathAndItsCachedPages() throws IOException {
        try (MountedVolume volume = MountedVolume.under(base, "local_data_cache_size=64MiB").mount()) {
            byte[] data = Bytes.random(3, 2 * MIB + 5);
            Files.createDirectories(volume.sourcePath("docs"));
            Files.write(volume.sourcePath("docs/a.bin"), data);
            Path file = volume.path("docs/a.bin");
            Files.createLink(volume.path("hard"), file);
            assertArrayEquals(data, Files.readAllBytes(file));

            Result result = strata("info", file.toString());
            assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
            String out = result.out();
            assertTrue(out.startsWith(file + "\n"), out);
            assertTrue(out.contains("  inode:         "), out);
            assertTrue(out.contains("(file, mode 0"), out);
            assertTrue(out.contains("  size:          " + data.length + " bytes\n"), out);
            assertTrue(out.contains("  links:         2 (primary link /docs/a.bin)\n"), out);
            assertTrue(out.contains("  under storage: " + volume.source().toUri().toString().replaceAll("/$", "")
                    + "/docs/a.bin\n"), out);
            assertFalse(out.contains("(none recorded)"), "a version is recorded: " + out);
            // the pages read are stored in the background
            Poll.until("pages cached on disk", true, Duration.ofSeconds(10),
                    () -> strata("info", file.toString()).out().contains("disk 3 of 3"));
        }
    }

    @Test
    void jsonIsTheMountsObject() throws IOException {
        try (MountedVolume volume = MountedVolume.under(base).mount()) {
            Files.createDirectories(volume.path("dir"));
            Result result = strata("info", "--json", volume.path("dir").toString());
            assertEquals(ExitCodes.OK, result.exitCode(), result::toString);
            assertTrue(result.out().startsWith("{\"ino\":"), result.out());
            assertTrue(result.out().contains("\"type\":\"directory\""), result.out());
            assertTrue(result.out().contains("\"nlink\":2"), result.out());
            assertTrue(result.out().contains("\"ufs_path\":\"dir\""), result.out());
        }
    }

    @Test
    void theInfoAttributeCannotBeSetAndIsNotListed() throws IOException {
        try (MountedVolume volume = MountedVolume.under(base).mount()) {
            Path file = volume.path("f");
            Files.writeString(file, "x");
            UserDefinedFileAttributeView view = Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
            assertThrows(IOException.class, () -> view.write("strata.info", ByteBuffer.wrap(new byte[] {1})));
            assertFalse(view.list().contains("strata.info"), "listed: " + view.list());
        }
    }

    @Test
    void aPathOutsideAMountIsBadInput() throws IOException {
        Path outside = Files.createFile(base.resolve("plain"));
        Result result = strata("info", outside.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().contains("is not inside a Strata mount"), result.err());
    }
}
