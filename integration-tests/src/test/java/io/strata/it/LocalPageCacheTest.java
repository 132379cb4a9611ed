package io.strata.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/** The page store over the local under storage. */
class LocalPageCacheTest extends AbstractPageCacheTest {
    @Override
    MountedVolume newVolume(Path dir, String... options) throws IOException {
        return MountedVolume.under(dir, options);
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
}
