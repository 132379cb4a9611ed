package io.strata.meta.jdbc.dialect;

import io.strata.core.natives.LibraryCache;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One copy of sqlite-jdbc's native library per version and platform in the user's cache
 * directory, which sqlite-jdbc is pointed at ({@code org.sqlite.lib.path} and
 * {@code org.sqlite.lib.name}) before its first connection.
 *
 * <p>Left alone, sqlite-jdbc extracts the library from its jar into the temp directory at every
 * JVM's first connection, under a new name each time: 0.12-0.14 s of every mount's start (wall
 * profile), more than a tenth of it. The copy is written under a temporary name and moved into
 * place, so a reader never loads a partial file; it lives under the user's own cache directory
 * ({@code $XDG_CACHE_HOME/strata/native}, else {@code ~/.cache/strata/native}, as the class-data
 * archive of {@code bin/strata}), never the shared temp directory, where another user could
 * plant a library.
 *
 * <p>Nothing here is required: if the properties are set already, the platform has no library in
 * the jar, or the cache cannot be written, nothing is set and sqlite-jdbc extracts as before.
 */
final class SqliteNativeLibrary {
    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private static boolean prepared;

    private SqliteNativeLibrary() {}

    /** Points sqlite-jdbc at the cached copy, making it first if need be; once per JVM. */
    static synchronized void prepare() {
        if (prepared) {
            return;
        }
        prepared = true;
        if (System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null) {
            return; // the user's choice
        }
        LibraryCache.userDirectory(System.getenv(), System.getProperty("user.home")).flatMap(SqliteNativeLibrary::cachedCopy)
                .ifPresent(library -> {
                    System.setProperty(PATH_PROPERTY, library.getParent().toString());
                    System.setProperty(NAME_PROPERTY, library.getFileName().toString());
                });
    }

    /**
     * The library of this sqlite-jdbc version and platform under {@code root}, written there from
     * the jar if it is not yet; empty if the jar has none for this platform or it cannot be written.
     */
    static Optional<Path> cachedCopy(Path root) {
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName();
        // The resource path names the platform (e.g. /org/sqlite/native/Linux/x86_64), the version the build.
        return LibraryCache.keep(root.resolve(SQLiteJDBCLoader.getVersion() + resource), SQLiteJDBCLoader.class,
                () -> resource);
    }
}
