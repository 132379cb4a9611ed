package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The directory a bench run works in: fresh, and gone with everything in it once closed. */
class BenchDirectoryTest {
    @Test
    void closingRemovesTheDirectoryWithWhateverIsInIt(@TempDir Path parent) throws IOException {
        Path path;
        try (BenchDirectory dir = BenchDirectory.create(parent, () -> {})) {
            path = dir.path();
            assertTrue(path.getFileName().toString().startsWith("strata-bench-"), path::toString);
            Files.writeString(Files.createDirectories(path.resolve("sub")).resolve("file"), "x");
            Files.writeString(path.resolve("top"), "y");
        }
        assertFalse(Files.exists(path), path::toString);
    }

    @Test
    void aNormalCloseDoesNotStopWork(@TempDir Path parent) throws IOException {
        AtomicBoolean stopped = new AtomicBoolean();
        BenchDirectory.create(parent, () -> stopped.set(true)).close();
        assertFalse(stopped.get()); // stopWork is for a JVM stopped mid-run only
    }
}
