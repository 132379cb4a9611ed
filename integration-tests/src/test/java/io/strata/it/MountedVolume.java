package io.strata.it;

import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.OptionsLoader;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.fuse.MountPoints;
import io.strata.fuse.MountRequest;
import io.strata.fuse.StrataMount;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * A Strata volume for a test: a source directory, an empty mountpoint and an SQLite metastore,
 * all under one base directory (a {@code @TempDir}), mounted in this JVM through /dev/fuse.
 *
 * <p>{@link #close()} always takes the mount down: a normal unmount first, and if that fails or
 * leaves the mount behind, {@code fusermount -u -z}, because a leaked FUSE mount breaks every later
 * test that touches its path. A shutdown hook does the same for volumes still mounted when the JVM
 * exits (a test run killed by its timeout).
 */
final class MountedVolume implements AutoCloseable {
    private static final Set<MountedVolume> MOUNTED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> MOUNTED.forEach(MountedVolume::detach),
                "strata-it-unmount"));
    }

    private final Path source;
    /** What is mounted: the source directory, or a bucket prefix ({@link #overS3}). */
    private final URI sourceUri;
    private final Path mountPoint;
    private final Path stateDir;
    private final Path metaFile;
    private final Map<String, String> options;
    private StrataMount mount;

    private MountedVolume(Path base, Map<String, String> options) throws IOException {
        this(base, null, options);
    }

    private MountedVolume(Path base, URI s3Volume, Map<String, String> options) throws IOException {
        Path root = requireNonNull(base, "base is null").toAbsolutePath().normalize();
        // @TempDir makes 0700 directories; other users (the EACCES test) must be able to walk in.
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        this.source = Files.createDirectories(root.resolve("source"));
        this.sourceUri = s3Volume != null ? s3Volume : UnderFileSystems.toUri(source.toString());
        this.mountPoint = Files.createDirectories(root.resolve("mnt"));
        this.stateDir = Files.createDirectories(root.resolve("state"));
        this.metaFile = stateDir.resolve("meta.db");
        this.options = new LinkedHashMap<>(options);
    }

    /**
     * A volume under {@code base}, not yet mounted. {@code options} are {@code key=value} pairs as
     * after {@code -o}, on top of the metastore and state directory under {@code base}.
     */
    static MountedVolume under(Path base, String... options) throws IOException {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String option : options) {
            int eq = option.indexOf('=');
            parsed.put(eq < 0 ? option : option.substring(0, eq), eq < 0 ? "true" : option.substring(eq + 1));
        }
        return new MountedVolume(base, parsed);
    }

    /**
     * A volume over the bucket prefix {@code s3Volume} (an {@code s3://} URI), with the metastore
     * and state under {@code base}; {@code options} as for {@link #under}, on top of the S3
     * options (endpoint, credentials) in {@code s3Options}. {@link #source()} is then unused.
     */
    static MountedVolume overS3(Path base, URI s3Volume, Map<String, String> s3Options, String... options)
            throws IOException {
        Map<String, String> parsed = new LinkedHashMap<>(s3Options);
        for (String option : options) {
            int eq = option.indexOf('=');
            parsed.put(eq < 0 ? option : option.substring(0, eq), eq < 0 ? "true" : option.substring(eq + 1));
        }
        return new MountedVolume(base, requireNonNull(s3Volume, "s3Volume is null"), parsed);
    }

    /** Mounts with the same source, metastore and options each time. */
    MountedVolume mount() throws IOException {
        if (mount != null) {
            throw new IllegalStateException("already mounted at " + mountPoint);
        }
        OptionsLoader loader = new OptionsLoader(OptionRegistry.load())
                .set("meta", "sqlite://" + metaFile, "test")
                .set("state_dir", stateDir.toString(), "test")
                .set("fuse", Transport.current().optionValue(), "test");
        options.forEach((key, value) -> loader.set(key, value, "test"));
        MOUNTED.add(this);
        try {
            mount = StrataMount.mount(new MountRequest(sourceUri, mountPoint, loader.build()));
        } catch (IOException | RuntimeException e) {
            MOUNTED.remove(this);
            detach();
            throw e;
        }
        return this;
    }

    /** Unmounts (flushing and closing the metastore) and mounts again over the same state. */
    void remount() throws IOException {
        unmount();
        mount();
    }

    /** Unmounts if mounted; a failure is thrown after the mount has been detached lazily. */
    void unmount() throws IOException {
        StrataMount current = mount;
        mount = null;
        if (current == null) {
            return;
        }
        try {
            current.close();
        } catch (IOException | RuntimeException e) {
            detach();
            throw e;
        } finally {
            MOUNTED.remove(this);
        }
        if (MountPoints.isMounted(mountPoint)) {
            detach();
            throw new IOException("still mounted after StrataMount.close(): " + mountPoint
                    + " (detached with fusermount -u -z)");
        }
    }

    @Override
    public void close() throws IOException {
        unmount();
    }

    /** Last resort: a lazy unmount, whatever state the mount is in. */
    private void detach() {
        if (!MountPoints.isMounted(mountPoint)) {
            return;
        }
        try {
            MountPoints.unmount(mountPoint, true);
        } catch (IOException e) {
            System.err.println("could not detach " + mountPoint + ": " + e.getMessage());
        }
    }

    /** The directory {@code name} in the mount root, created (with parents) if missing. */
    Path dir(String name) throws IOException {
        return Files.createDirectories(path(name));
    }

    /** {@code relative} resolved in the mount. */
    Path path(String relative) {
        return mountPoint.resolve(relative);
    }

    /** {@code relative} resolved in the source directory. */
    Path sourcePath(String relative) {
        return source.resolve(relative);
    }

    /** The same file in the source directory as {@code inMount} is in the mount. */
    Path inSource(Path inMount) {
        return source.resolve(mountPoint.relativize(inMount));
    }

    Path source() {
        return source;
    }

    Path mountPoint() {
        return mountPoint;
    }

    Path metaFile() {
        return metaFile;
    }

    Path stateDir() {
        return stateDir;
    }

    /** The mounted file system's meters ({@code strata.cache.*}), read in this JVM. */
    io.micrometer.core.instrument.MeterRegistry meters() {
        return strataMount().fileSystem().meters();
    }

    /** The page cache directory the volume uses by default (unless local_data_cache is given). */
    Path defaultCacheDir() {
        return io.strata.client.Volumes.cacheDir(stateDir, sourceUri);
    }

    StrataMount strataMount() {
        if (mount == null) {
            throw new IllegalStateException("not mounted: " + mountPoint);
        }
        return mount;
    }

    /** Every entry name directly in {@code dir}, sorted. */
    static List<String> names(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (var entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        return names;
    }
}
