package io.strata.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The refusals of {@code strata warmup}; warming a real mount is tested in integration-tests (CacheRestartTest). */
class WarmupCommandTest {
    @Test
    void aPathOutsideAnyMountIsRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("warmup", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertEquals("strata: " + dir + " is not inside a Strata mount; give a path under the mountpoint of"
                + " 'strata mount'\n", result.err());
    }

    @Test
    void aMissingPathIsRefused(@TempDir Path dir) {
        Cli.Result result = Cli.run("warmup", "--check", dir.resolve("nope").toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().contains(dir.resolve("nope") + " does not exist"), result::toString);
    }

    @Test
    void threadsMustBePositive(@TempDir Path dir) {
        Cli.Result result = Cli.run("warmup", "-j", "0", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, result.exitCode(), result::toString);
        assertTrue(result.err().contains("--threads must be at least 1"), result::toString);
    }

    @Test
    void sizesAndPercentagesReadWell() {
        assertEquals("512 B", Units.bytes(512));
        assertEquals("1.5 MiB", Units.bytes(3 << 19));
        assertEquals(" 50.0%", Units.percent(1, 2));
        assertEquals("100.0%", Units.percent(0, 0));
    }
}
