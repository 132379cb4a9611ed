package io.strata.it;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks a directory tree that a live daemon is changing underneath: an entry removed between
 * being listed and being read is simply absent from the result. {@link Files#walk} throws on
 * such an entry instead, which made a poll for "the daemon removed it" fail on the very removal
 * it was waiting for.
 */
final class FileTrees {
    private FileTrees() {}

    /** A regular file seen by the walk, with its size when it was seen. */
    record Entry(Path path, long size) {}

    /** The regular files under {@code root} (none if {@code root} is missing), in walk order. */
    static List<Entry> regularFiles(Path root) throws IOException {
        List<Entry> found = new ArrayList<>();
        if (!Files.exists(root)) {
            return found;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile()) {
                    found.add(new Entry(file, attributes.size()));
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found;
    }
}
