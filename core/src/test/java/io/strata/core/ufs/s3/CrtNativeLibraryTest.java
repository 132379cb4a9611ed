package io.strata.core.ufs.s3;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.crt.CRT;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The CRT's native library kept for the next JVM, so that only a jar's first start extracts it. */
class CrtNativeLibraryTest {
    @TempDir
    Path cache;

    @Test
    void theKeptLibraryIsTheOneTheCrtWouldExtractForThisPlatform() throws IOException {
        Path library = CrtNativeLibrary.keep(cache.resolve("aws-crt-1")).orElseThrow();

        assertEquals(System.mapLibraryName(CRT.CRT_LIB_NAME), library.getFileName().toString());
        assertArrayEquals(jarLibrary(), Files.readAllBytes(library));
    }

    @Test
    void aKeptLibraryIsNotWrittenAgain() throws IOException {
        Path library = CrtNativeLibrary.keep(cache).orElseThrow();
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(library, old);

        assertEquals(Optional.of(library), CrtNativeLibrary.keep(cache));
        assertEquals(old, Files.getLastModifiedTime(library));
    }

    @Test
    void aDirectoryThatCannotBeWrittenKeepsNothing() throws IOException {
        Path notADirectory = Files.writeString(cache.resolve("file"), "x");

        assertEquals(Optional.empty(), CrtNativeLibrary.keep(notADirectory.resolve("aws-crt-1")));
    }

    private static byte[] jarLibrary() throws IOException {
        String os = CRT.getOSIdentifier();
        String resource = "/" + os + "/" + CRT.getArchIdentifier() + "/" + CRT.getCRuntime(os) + "/"
                + System.mapLibraryName(CRT.CRT_LIB_NAME);
        try (InputStream in = CRT.class.getResourceAsStream(resource)) {
            return in.readAllBytes();
        }
    }
}
