package io.strata.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

/** The page store over the local under storage. */
class LocalPageCacheTest extends AbstractPageCacheTest {
    @Override
    MountedVolume newVolume(Path dir, String... options) throws IOException {
        // Over a local source the page cache is opt-in: ask for it, at its default size.
        List<String> all = new ArrayList<>(List.of("local_data_cache_size=512MiB"));
        all.addAll(List.of(options));
        return MountedVolume.under(dir, all.toArray(String[]::new));
    }

    @Override
    void putObject(MountedVolume volume, String name, byte[] data) throws IOException {
        Path file = volume.sourcePath(name);
        boolean existed = Files.exists(file);
        FileTime before = existed ? Files.getLastModifiedTime(file) : null;
        Files.write(file, data);
        if (existed && Files.getLastModifiedTime(file).equals(before)) {
            // A rewrite within one mtime tick keeps the local version: make the change visible, as time would.
            Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 1000));
        }
    }

    @Override
    void deleteObject(MountedVolume volume, String name) throws IOException {
        Files.delete(volume.sourcePath(name));
    }
}
