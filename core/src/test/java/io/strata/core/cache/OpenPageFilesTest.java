package io.strata.core.cache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Page files kept open across reads: shared, bounded, and never closed under a reader. */
class OpenPageFilesTest {
    @TempDir
    Path dir;

    Path file(String name) throws IOException {
        return Files.writeString(dir.resolve(name), name);
    }

    @Test
    void readersOfOneFileShareOneOpenFile() throws IOException {
        Path a = file("a");
        try (OpenPageFiles files = new OpenPageFiles(4);
             OpenPageFiles.Handle first = files.open(a);
             OpenPageFiles.Handle second = files.open(a)) {
            assertSame(first.channel(), second.channel());
            assertEquals(1, files.size());
        }
    }

    @Test
    void aFileStaysOpenAfterItsReadForTheNextOne() throws IOException {
        Path a = file("a");
        try (OpenPageFiles files = new OpenPageFiles(4)) {
            OpenPageFiles.Handle first = files.open(a);
            first.close();
            assertTrue(first.channel().isOpen());
            try (OpenPageFiles.Handle again = files.open(a)) {
                assertSame(first.channel(), again.channel());
            }
        }
    }

    @Test
    void aForgottenFileClosesWhenItsLastReaderIsDone() throws IOException {
        Path a = file("a");
        try (OpenPageFiles files = new OpenPageFiles(4)) {
            OpenPageFiles.Handle reader = files.open(a);
            Files.delete(a);
            files.forget(a);
            assertTrue(reader.channel().isOpen(), "not closed under its reader");
            assertEquals(1, reader.channel().read(ByteBuffer.allocate(1), 0), "the deleted file still reads");
            reader.close();
            assertFalse(reader.channel().isOpen());
            assertThrows(NoSuchFileException.class, () -> files.open(a));
        }
    }

    @Test
    void filesPastTheBoundAreClosedOnceTheirReadersAreDone() throws IOException {
        try (OpenPageFiles files = new OpenPageFiles(2)) {
            OpenPageFiles.Handle held = files.open(file("held"));
            for (int i = 0; i < 20; i++) {
                files.open(file("f" + i)).close();
            }
            assertTrue(files.size() <= 2, files.size() + " held open");
            assertTrue(held.channel().isOpen(), "a file in use is not closed by the bound");
            held.close();
        }
    }

    @Test
    void closingClosesEveryFileNotInUse() throws IOException {
        OpenPageFiles files = new OpenPageFiles(4);
        OpenPageFiles.Handle a = files.open(file("a"));
        a.close();
        files.close();
        assertFalse(a.channel().isOpen());
    }
}
