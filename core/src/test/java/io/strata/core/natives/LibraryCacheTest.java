package io.strata.core.natives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The user's cache of native libraries: where it is, and how a library gets into it. */
class LibraryCacheTest {
    @TempDir
    Path cache;

    @Test
    void theCacheIsTheUsersOwnNeverTheSharedTempDirectory() {
        assertEquals(Optional.of(Path.of("/xdg/strata/native")),
                LibraryCache.userDirectory(Map.of("XDG_CACHE_HOME", "/xdg"), "/home/u"));
        assertEquals(Optional.of(Path.of("/home/u/.cache/strata/native")), LibraryCache.userDirectory(Map.of(), "/home/u"));
        assertEquals(Optional.of(Path.of("/home/u/.cache/strata/native")),
                LibraryCache.userDirectory(Map.of("XDG_CACHE_HOME", "relative"), "/home/u"));
        assertEquals(Optional.empty(), LibraryCache.userDirectory(Map.of(), null));
    }

    @Test
    void aKeptLibraryHoldsTheJarsBytesInADirectoryOfTheUsersOwnWithNothingPartialLeft() throws IOException {
        Path library = cache.resolve("lib/1.0/libx.so");

        assertTrue(LibraryCache.write(library, new ByteArrayInputStream(new byte[] {1, 2, 3})));

        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(library));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(library.getParent())));
        try (var left = Files.list(library.getParent())) {
            assertEquals(List.of(library), left.toList());
        }
    }

    @Test
    void aLibraryInPlaceIsNotWrittenAgain() throws IOException {
        Path library = Files.write(cache.resolve("libx.so"), new byte[] {1});

        assertTrue(LibraryCache.write(library, failingStream()));
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(library));
    }

    @Test
    void aCopyThatFailsLeavesNoLibraryBehind() throws IOException {
        Path library = cache.resolve("libx.so");

        assertThrows(IOException.class, () -> LibraryCache.write(library, failingStream()));
        try (var left = Files.list(cache)) {
            assertEquals(List.of(), left.toList());
        }
    }

    private static InputStream failingStream() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("the jar went away");
            }
        };
    }
}
