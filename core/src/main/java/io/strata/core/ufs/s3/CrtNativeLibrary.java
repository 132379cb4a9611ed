package io.strata.core.ufs.s3;

import io.strata.core.natives.LibraryCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.crt.CRT;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The AWS CRT's native library, kept where the next JVM's {@code System.loadLibrary} finds it.
 *
 * <p>The CRT loads its library from {@code java.library.path} when it is there, and otherwise
 * extracts it from its jar into the temp directory under a new name (65 ms of CPU for 6 MB, plus
 * an {@code ldd} run to tell glibc from musl) at every start. {@code bin/strata} puts a directory of
 * the user's cache first on that path, one per jar, and names it in {@value #DIRECTORY_PROPERTY};
 * once the CRT has loaded, the library this platform needs is copied there, so only a jar's first
 * start extracts. Without the property (tests, the Hadoop adapter) nothing is kept.
 */
final class CrtNativeLibrary {
    private static final Logger log = LoggerFactory.getLogger(CrtNativeLibrary.class);
    static final String DIRECTORY_PROPERTY = "strata.crt.library.dir";

    private CrtNativeLibrary() {}

    /** Copies the CRT's library for this platform into {@code strata.crt.library.dir}, unless it is there. */
    static void keepForNextStart() {
        String directory = System.getProperty(DIRECTORY_PROPERTY);
        if (directory != null && !directory.isEmpty()) {
            keep(Path.of(directory));
        }
    }

    /** The library in {@code directory}, copied from the jar if need be; empty if it cannot be. */
    static Optional<Path> keep(Path directory) {
        Path library = directory.resolve(System.mapLibraryName(CRT.CRT_LIB_NAME));
        if (Files.isRegularFile(library)) {
            return Optional.of(library);
        }
        try {
            String os = CRT.getOSIdentifier();
            // Where the CRT itself looks in its jar (its ExtractLib): os/arch/C runtime/library.
            String resource = "/" + os + "/" + CRT.getArchIdentifier() + "/" + CRT.getCRuntime(os) + "/"
                    + library.getFileName();
            try (InputStream in = CRT.class.getResourceAsStream(resource)) {
                return in != null && LibraryCache.keep(library, in) ? Optional.of(library) : Optional.empty();
            }
        } catch (IOException | RuntimeException e) { // CRT.UnknownPlatformException is one of the latter
            log.debug("cannot keep the CRT's native library in {}; the next start extracts it again: {}", directory,
                    e.toString());
            return Optional.empty();
        }
    }
}
