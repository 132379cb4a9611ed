package io.strata.core.natives;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The user's cache of native libraries: {@code $XDG_CACHE_HOME/strata/native}, else
 * {@code ~/.cache/strata/native}, beside {@code bin/strata}'s class-data archive; never the shared
 * temp directory, where another user could plant a library for the next JVM to load.
 */
public final class LibraryCache {
    private static final Logger log = LoggerFactory.getLogger(LibraryCache.class);

    private LibraryCache() {}

    /** {@code $XDG_CACHE_HOME/strata/native}, else {@code ~/.cache/strata/native}; empty without either. */
    public static Optional<Path> userDirectory(Map<String, String> environment, String home) {
        String xdg = environment.get("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return Optional.of(Path.of(xdg, "strata", "native"));
        }
        return home == null || home.isEmpty() || home.equals("?") ? Optional.empty()
                : Optional.of(Path.of(home, ".cache", "strata", "native"));
    }

    /**
     * {@code library}, written from the resource of {@code owner}'s jar that {@code resource} names
     * unless it is there already (then {@code resource} is not even asked: naming it may be costly,
     * the CRT runs {@code ldd}). Empty if the jar has no such resource or the library cannot be
     * written; the dependency then extracts its own, as without this cache.
     */
    public static Optional<Path> keep(Path library, Class<?> owner, Supplier<String> resource) {
        if (Files.isRegularFile(library)) {
            return Optional.of(library);
        }
        try (InputStream in = owner.getResourceAsStream(resource.get())) {
            return in != null && write(library, in) ? Optional.of(library) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.debug("cannot keep {} from the jar of {}; it is extracted as before: {}", library, owner.getName(),
                    e.toString());
            return Optional.empty();
        }
    }

    /**
     * Writes {@code library} from {@code jarCopy} unless it is there already: under a temporary
     * name in the same directory, then moved into place, so no JVM ever loads a partial file (two
     * JVMs racing write the same bytes; the second move loses harmlessly). New directories are the
     * user's alone (0700). Returns whether the library is in place.
     */
    static boolean write(Path library, InputStream jarCopy) throws IOException {
        if (Files.isRegularFile(library)) {
            return true;
        }
        Files.createDirectories(library.getParent(),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path partial = Files.createTempFile(library.getParent(), library.getFileName().toString(), ".partial");
        try {
            Files.copy(jarCopy, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
            // another JVM moved its copy in first: the same bytes
        } finally {
            Files.deleteIfExists(partial);
        }
        return Files.isRegularFile(library);
    }
}
