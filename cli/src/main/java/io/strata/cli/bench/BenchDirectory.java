package io.strata.cli.bench;

import io.strata.cli.Messages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The fresh directory a {@code strata bench} run works in, under the directory given, removed
 * with everything in it when the run ends: by {@link #close()}, or by a shutdown hook when the
 * JVM is stopped first (Ctrl-C, SIGTERM), after {@code stopWork} has stopped the threads still
 * writing into it.
 */
public final class BenchDirectory implements AutoCloseable {
    private final Path path;
    private final Thread hook;

    private BenchDirectory(Path path, Runnable stopWork) {
        this.path = path;
        this.hook = new Thread(() -> {
            stopWork.run();
            try {
                delete(path);
            } catch (IOException | UncheckedIOException e) {
                System.err.println("strata: could not remove " + path + " (" + Messages.describe(e)
                        + "); remove it by hand");
            }
        }, "strata-bench-cleanup");
    }

    /** Creates {@code strata-bench-<random>} in {@code parent}; {@code stopWork} runs before a removal at exit. */
    public static BenchDirectory create(Path parent, Runnable stopWork) throws IOException {
        requireNonNull(stopWork, "stopWork is null");
        BenchDirectory dir = new BenchDirectory(Files.createTempDirectory(parent, "strata-bench-"), stopWork);
        Runtime.getRuntime().addShutdownHook(dir.hook);
        return dir;
    }

    public Path path() {
        return path;
    }

    /** Removes the directory and everything in it. */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            return; // the JVM is shutting down: the hook removes it
        }
        try {
            delete(path);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void delete(Path root) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList(); // children before their directory
        } catch (NoSuchFileException e) {
            return;
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
