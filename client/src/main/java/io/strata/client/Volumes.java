package io.strata.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Where a volume's default state lives: one directory per source under the state dir. */
public final class Volumes {
    private Volumes() {}

    /** {@code <stateDir>/volumes/<last name>-<hash of the URI>}: stable for a source, distinct across sources. */
    public static Path volumeDir(Path stateDir, URI source) {
        String path = source.getPath() == null ? "" : source.getPath();
        String base = Path.of(path.isEmpty() ? "/" : path).getFileName() == null ? "root"
                : Path.of(path).getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_");
        return stateDir.resolve("volumes").resolve(base + "-" + shortHash(source.toString()));
    }

    /** The default page cache directory: {@code cache} in the volume's directory. */
    public static Path cacheDir(Path stateDir, URI source) {
        return volumeDir(stateDir, source).resolve("cache");
    }

    /** The default metastore URL: an SQLite file in the volume's directory. */
    public static String defaultMetaUrl(Path stateDir, URI source) {
        return "sqlite://" + volumeDir(stateDir, source).resolve("meta.db");
    }

    private static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("SHA-256 is in every JDK", e);
        }
    }
}
