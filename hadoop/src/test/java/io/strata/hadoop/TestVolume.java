package io.strata.hadoop;

import io.strata.client.VolumeFormat;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.OptionsLoader;
import io.strata.core.ufs.s3.S3TestServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A volume formatted for the tests, its state under {@code target/}: a metastore (SQLite) over a
 * fresh local directory, or over a fresh bucket of the S3 test server (S3Proxy in this JVM), with
 * the {@code fs.strata.NAME.*} settings that point a Hadoop client at it.
 */
public record TestVolume(String name, Path dir, URI source, Map<String, String> settings) {
    private static final Path ROOT = Path.of("target", "strata-volumes").toAbsolutePath();

    /** A new volume over a new local directory; its page cache on, to go through it as S3 does. */
    public static TestVolume local(String name) {
        Path dir = newDir(name);
        Path data = dir.resolve("data");
        create(data);
        return format(name, dir, data.toUri(), Map.of("local_data_cache", dir.resolve("cache").toString()));
    }

    /** A new volume over a new bucket of the S3 test server. */
    public static TestVolume s3(String name) {
        S3TestServer server = S3TestServer.shared();
        return format(name, newDir(name), server.newVolume(name), server.optionText());
    }

    private static TestVolume format(String name, Path dir, URI source, Map<String, String> options) {
        Map<String, String> settings = new LinkedHashMap<>(options);
        settings.put("meta", "sqlite://" + dir.resolve("meta.db"));
        settings.put("state_dir", dir.resolve("state").toString());
        OptionsLoader loader = new OptionsLoader(OptionRegistry.load());
        settings.forEach((key, value) -> loader.set(key, value, "test"));
        try {
            VolumeFormat.format(settings.get("meta"), source, loader.build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> prefixed = new LinkedHashMap<>();
        settings.forEach((key, value) -> prefixed.put("fs.strata." + name + "." + key, value));
        return new TestVolume(name, dir, source, prefixed);
    }

    public URI uri() {
        return URI.create("strata://" + name + "/");
    }

    /** {@code conf} with this volume's settings. */
    public Configuration configure(Configuration conf) {
        settings.forEach(conf::set);
        return conf;
    }

    /** A new client of the volume, outside Hadoop's cache of file systems. */
    public FileSystem newClient() throws IOException {
        return FileSystem.newInstance(uri(), configure(new Configuration()));
    }

    private static Path newDir(String name) {
        Path dir = ROOT.resolve(name + "-" + UUID.randomUUID());
        create(dir);
        return dir;
    }

    private static void create(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
