package io.strata.it;

import io.strata.fuse.MountPoints;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two mounts in two daemon processes on one metastore and one source directory, as two machines
 * sharing a volume would be: each sees the other's changes within attr_timeout +
 * local_metadata_cache_expire, and concurrent changes lose nothing.
 *
 * <p>Subclasses name the metastore; every engine that can be shared runs the same tests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractMultiClientTest {
    /** attr_timeout (1 s) + local_metadata_cache_expire (2 s) + negative expiry, with room for a slow machine. */
    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(8);

    private Path base;
    private Path source;
    private Path first;
    private Path second;
    private int next;

    /** The shared metastore's URL; {@code base} is a scratch directory of this test class. */
    protected abstract String metaUrl(Path base) throws Exception;

    @BeforeAll
    void mountTwice() throws Exception {
        base = Files.createTempDirectory("strata-multi-client");
        source = Files.createDirectories(base.resolve("source"));
        first = Files.createDirectories(base.resolve("first"));
        second = Files.createDirectories(base.resolve("second"));
        String meta = metaUrl(base);
        mount(first, meta);
        mount(second, meta);
    }

    /** A password in the metastore URL, which must never be printed or logged. */
    protected Optional<String> secret() {
        return Optional.empty();
    }

    private void mount(Path mountPoint, String meta) throws IOException {
        Shell.Result mounted = strata("mount", source.toString(), mountPoint.toString(), "-o", "meta=" + meta);
        mounted.assertOk();
        if (secret().isPresent()) {
            String password = secret().get();
            assertThat(mounted.out() + mounted.err()).as("mount output").doesNotContain(password);
            try (Stream<Path> logs = Files.walk(base.resolve("state"))) {
                for (Path log : logs.filter(Files::isRegularFile).toList()) {
                    assertThat(Files.readString(log)).as("state file " + log).doesNotContain(password);
                }
            }
        }
    }

    @AfterAll
    void unmountBoth() {
        for (Path mountPoint : List.of(first, second)) {
            if (mountPoint != null && MountPoints.isMounted(mountPoint)) {
                Shell.Result umount = strata("umount", mountPoint.toString());
                if (umount.exit() != 0 && MountPoints.isMounted(mountPoint)) {
                    Shell.run(base, "fusermount", "-u", "-z", mountPoint.toString());
                }
            }
        }
        Shell.run(Path.of("/"), "rm", "-rf", base.toString());
    }

    private Shell.Result strata(String... args) {
        return Launcher.run(base, Map.of("STRATA_STATE_DIR", base.resolve("state").toString()), args);
    }

    /** A fresh directory name per test, made through the first mount and seen by the second. */
    private String freshDirectory() throws IOException {
        String name = "t" + (next++);
        Files.createDirectory(first.resolve(name));
        Poll.until("directory " + name + " on the second mount", true, VISIBLE_WITHIN,
                () -> Files.isDirectory(second.resolve(name)));
        return name;
    }

    @Test
    void fileWrittenOnOneIsReadOnTheOther() throws IOException {
        String dir = freshDirectory();
        Files.writeString(first.resolve(dir).resolve("f.txt"), "from the first client");

        Poll.until("content on the second mount", "from the first client", VISIBLE_WITHIN,
                () -> Files.exists(second.resolve(dir).resolve("f.txt"))
                        ? Files.readString(second.resolve(dir).resolve("f.txt")) : null);
    }

    @Test
    void renameOnOneIsSeenOnTheOther() throws IOException {
        String dir = freshDirectory();
        Files.writeString(first.resolve(dir).resolve("old"), "x");
        Poll.until("old name on the second mount", true, VISIBLE_WITHIN,
                () -> Files.exists(second.resolve(dir).resolve("old")));

        Files.move(first.resolve(dir).resolve("old"), first.resolve(dir).resolve("new"));

        Poll.until("new name on the second mount", true, VISIBLE_WITHIN,
                () -> Files.exists(second.resolve(dir).resolve("new")) && !Files.exists(second.resolve(dir).resolve("old")));
    }

    @Test
    void aNameMadeOnOneShowsInTheOthersListing() throws IOException {
        String dir = freshDirectory();
        Files.writeString(first.resolve(dir).resolve("a"), "x");
        Poll.until("a listed on the second mount", List.of("a"), VISIBLE_WITHIN, () -> names(second.resolve(dir)));

        Files.writeString(first.resolve(dir).resolve("b"), "x");

        Poll.until("b listed on the second mount", List.of("a", "b"), VISIBLE_WITHIN, () -> names(second.resolve(dir)));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> listed = Files.list(dir)) {
            return listed.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void chmodOnOneIsSeenOnTheOther() throws IOException {
        String dir = freshDirectory();
        Path file = first.resolve(dir).resolve("f");
        Files.writeString(file, "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));

        Poll.until("mode on the second mount", "rwx------", VISIBLE_WITHIN,
                () -> Files.exists(second.resolve(dir).resolve("f"))
                        ? PosixFilePermissions.toString(Files.getPosixFilePermissions(second.resolve(dir).resolve("f")))
                        : null);
    }

    @Test
    void deleteOnOneIsSeenOnTheOther() throws IOException {
        String dir = freshDirectory();
        Files.writeString(first.resolve(dir).resolve("f"), "x");
        Poll.until("file on the second mount", true, VISIBLE_WITHIN,
                () -> Files.exists(second.resolve(dir).resolve("f")));

        Files.delete(first.resolve(dir).resolve("f"));

        Poll.until("file gone on the second mount", false, VISIBLE_WITHIN,
                () -> Files.exists(second.resolve(dir).resolve("f")));
    }

    @Test
    void concurrentWritersToDifferentFilesLoseNothing() throws Exception {
        String dir = freshDirectory();
        int perClient = 40;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (Path mount : List.of(first, second)) {
                for (int i = 0; i < perClient; i++) {
                    Path file = mount.resolve(dir).resolve(mount.getFileName() + "-" + i);
                    String content = "written through " + file;
                    writes.add(pool.submit((Callable<Void>) () -> {
                        Files.writeString(file, content);
                        return null;
                    }));
                }
            }
            for (Future<?> write : writes) {
                write.get();
            }
        } finally {
            pool.shutdownNow();
        }

        for (Path reader : List.of(first, second)) {
            Poll.until("all files on " + reader, 2 * perClient, VISIBLE_WITHIN,
                    () -> MountedVolume.names(reader.resolve(dir)).size());
            for (Path writer : List.of(first, second)) {
                for (int i = 0; i < perClient; i++) {
                    String name = writer.getFileName() + "-" + i;
                    assertThat(Files.readString(reader.resolve(dir).resolve(name)))
                            .isEqualTo("written through " + writer.resolve(dir).resolve(name));
                }
            }
        }
    }

    @Test
    void twoClientsCreatingTheSameNameAtOnceExactlyOneWins() throws Exception {
        String dir = freshDirectory();
        int names = 20;
        // Each client creates every name with O_CREAT|O_EXCL, both at once.
        String script = "import os, sys\n"
                + "wins = 0\n"
                + "for i in range(" + names + "):\n"
                + "    try:\n"
                + "        os.close(os.open(os.path.join(sys.argv[1], 'n%d' % i), os.O_CREAT | os.O_EXCL | os.O_WRONLY))\n"
                + "        wins += 1\n"
                + "    except FileExistsError:\n"
                + "        pass\n"
                + "print(wins)\n";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Shell.Result> a = pool.submit(() -> Shell.run(base, "python3", "-c", script, first.resolve(dir).toString()));
            Future<Shell.Result> b = pool.submit(() -> Shell.run(base, "python3", "-c", script, second.resolve(dir).toString()));
            Shell.Result ra = a.get();
            Shell.Result rb = b.get();
            ra.assertOk();
            rb.assertOk();
            int wins = Integer.parseInt(ra.out().trim()) + Integer.parseInt(rb.out().trim());
            assertThat(wins).as("creations that succeeded, over both clients").isEqualTo(names);
        } finally {
            pool.shutdownNow();
        }
        // Each mount lists the other's names within the sharing bound, as the class comment says:
        // a lookup that missed during the race may have read the directory while the other client
        // was still creating, and that listing is kept until the heap cache's expiry.
        for (Path reader : List.of(first, second)) {
            Poll.until("all names on " + reader, names, VISIBLE_WITHIN,
                    () -> MountedVolume.names(reader.resolve(dir)).size());
        }
    }
}
