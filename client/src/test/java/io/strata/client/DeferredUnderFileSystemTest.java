package io.strata.client;

import io.strata.core.conf.Options;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.core.ufs.UnderFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A storage still being opened answers what it is once open, as the open storage would; real local directories. */
class DeferredUnderFileSystemTest {
    @TempDir
    Path dir;

    @Test
    void aLocalDirectoryAnswersAsTheOpenStorageWould() throws IOException {
        URI uri = openedUri(dir);
        try (UnderFileSystem deferred = new DeferredUnderFileSystem(UfsOpening.start(uri, uri, Options.defaults()), uri)) {
            assertFalse(deferred.remote());
            assertTrue(deferred.preallocates());
            assertEquals(uri, deferred.uri());
        }
    }

    @Test
    void aStorageThatCannotOpenFailsItsPropertiesUncheckedWithTheOpeningsError() throws IOException {
        URI missing = dir.resolve("missing").toUri();
        try (UnderFileSystem deferred = new DeferredUnderFileSystem(
                UfsOpening.start(missing, missing, Options.defaults()), missing)) {
            UncheckedIOException remote = assertThrows(UncheckedIOException.class, deferred::remote);
            UncheckedIOException preallocates = assertThrows(UncheckedIOException.class, deferred::preallocates);

            assertInstanceOf(IOException.class, remote.getCause());
            assertEquals(remote.getCause().getMessage(), preallocates.getCause().getMessage());
        }
    }

    private static URI openedUri(Path directory) throws IOException {
        try (UnderFileSystem ufs = UnderFileSystems.open(directory.toUri())) {
            return ufs.uri();
        }
    }
}
