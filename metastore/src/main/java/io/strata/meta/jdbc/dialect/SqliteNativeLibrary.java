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
     *
     * <p>The copy is named by the platform as the JVM states it ({@code os.name}, {@code os.arch}),
     * not by sqlite-jdbc's own name for it: working that out runs {@code uname -o} in a child
     * process (its check for Termux), 25-30 ms of every mount's start (wall profile). It is asked
     * only when the copy is made, to pick the jar's library. Two platforms the JVM names alike
     * (glibc and musl sharing a home directory) would share a copy; the wrong one fails to load,
     * and sqlite-jdbc then extracts its own as without this cache.
     */
    static Optional<Path> cachedCopy(Path root) {
        String name = LibraryLoaderUtil.getNativeLibName();
        Path library = root.resolve(SQLiteJDBCLoader.getVersion())
                .resolve(System.getProperty("os.name") + "-" + System.getProperty("os.arch"))
                .resolve(name);
        return LibraryCache.keep(library, SQLiteJDBCLoader.class,
                () -> LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name);
    }
}
