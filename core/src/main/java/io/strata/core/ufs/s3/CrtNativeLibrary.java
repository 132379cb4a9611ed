package io.strata.core.ufs.s3;

import io.strata.core.natives.LibraryCache;
import software.amazon.awssdk.crt.CRT;

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
        String name = System.mapLibraryName(CRT.CRT_LIB_NAME);
        return LibraryCache.keep(directory.resolve(name), CRT.class, () -> {
            String os = CRT.getOSIdentifier(); // an unknown platform throws: nothing is kept
            // Where the CRT itself looks in its jar (its ExtractLib): os/arch/C runtime/library.
            return "/" + os + "/" + CRT.getArchIdentifier() + "/" + CRT.getCRuntime(os) + "/" + name;
        });
    }
}
