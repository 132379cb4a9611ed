package io.strata.meta.jdbc.dialect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** sqlite-jdbc's native library kept once per version in the user's cache, instead of extracted per JVM. */
class SqliteNativeLibraryTest {
    @TempDir
    Path cache;

    @Test
    void theFirstCopyHoldsTheJarsLibraryByteForByte() throws IOException {
        Path library = SqliteNativeLibrary.cachedCopy(cache).orElseThrow();

        assertTrue(library.startsWith(cache.resolve(SQLiteJDBCLoader.getVersion())), library.toString());
        assertEquals(LibraryLoaderUtil.getNativeLibName(), library.getFileName().toString());
        assertArrayEquals(jarLibrary(), Files.readAllBytes(library));
        try (var left = Files.list(library.getParent())) {
            assertEquals(1, left.count(), "no partial file is left beside it");
        }
    }

    @Test
    void theCopyIsNamedByTheVersionAndThePlatformAsTheJvmStatesIt() {
        Path library = SqliteNativeLibrary.cachedCopy(cache).orElseThrow();

        assertEquals(cache.resolve(SQLiteJDBCLoader.getVersion())
                .resolve(System.getProperty("os.name") + "-" + System.getProperty("os.arch"))
                .resolve(LibraryLoaderUtil.getNativeLibName()), library);
    }

    @Test
    void laterJvmsReuseTheCopyWithoutWritingIt() throws IOException {
        Path library = SqliteNativeLibrary.cachedCopy(cache).orElseThrow();
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(library, old);

        assertEquals(library, SqliteNativeLibrary.cachedCopy(cache).orElseThrow());
        assertEquals(old, Files.getLastModifiedTime(library));
    }

    @Test
    void aCacheThatCannotBeWrittenLeavesTheExtractionToSqliteJdbc() throws IOException {
        Path notADirectory = Files.writeString(cache.resolve("file"), "x");

        assertEquals(Optional.empty(), SqliteNativeLibrary.cachedCopy(notADirectory.resolve("native")));
    }

    private static byte[] jarLibrary() throws IOException {
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName();
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
            return in.readAllBytes();
        }
    }
}
