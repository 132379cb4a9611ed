package io.strata.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UmountCommandTest {
    @Test
    void aDirectoryThatIsNotMountedIsAClearError(@TempDir Path dir) {
        Cli.Result result = Cli.run("umount", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("", result.out());
        assertEquals("strata: " + dir + " is not mounted; give the mountpoint of a Strata mount"
                + " (see 'grep fuse /proc/mounts')\n", result.err());
    }

    @Test
    void aMissingPathIsNotMounted(@TempDir Path dir) {
        Cli.Result result = Cli.run("umount", dir.resolve("nope").toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().contains(dir.resolve("nope") + " is not mounted"), result::toString);
    }

    @Test
    void unmountIsAnAlias(@TempDir Path dir) {
        assertEquals(ExitCodes.BAD_INPUT, Cli.run("unmount", "--lazy", dir.toString()).exitCode());
    }

    // A non-FUSE mount (e.g. /proc) is refused before anything runs, but a test that pointed the
    // command at a real system mount would risk unmounting it if that check ever broke: not tested here.
}
