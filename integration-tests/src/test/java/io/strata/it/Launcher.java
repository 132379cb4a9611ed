package io.strata.it;

import io.strata.fuse.MountPoints;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/strata} as a user runs it, for the tests that start real mount daemons, and the
 * daemons it leaves running.
 *
 * <p>The launcher is {@code ${strata.home}/bin/strata} (surefire sets {@code strata.home}); the
 * system property {@code strata.launcher} points the tests at another one.
 */
final class Launcher {
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(90);

    private Launcher() {}

    static Path path() {
        Path home = Path.of(System.getProperty("strata.home", "."));
        return Path.of(System.getProperty("strata.launcher", home.resolve("bin/strata").toString()));
    }

    /** Runs {@code bin/strata args...} in {@code dir} with {@code env} added to this JVM's environment. */
    static Shell.Result run(Path dir, Map<String, String> env, String... args) {
        Path launcher = path();
        assertTrue(Files.isExecutable(launcher), launcher + " is missing or not executable");
        List<String> command = new ArrayList<>();
        command.add(launcher.toString());
        command.addAll(List.of(args));
        return Shell.run(dir, env, COMMAND_TIMEOUT, command);
    }

    /**
     * Whatever a test left behind at {@code mountPoint}: a live mount is unmounted with
     * {@code bin/strata umount} (run as {@link #run} would, in {@code dir} with {@code env}), a
     * stale or stubborn one detached, and any daemon still serving it killed.
     */
    static void cleanUp(Path dir, Map<String, String> env, Path mountPoint) {
        if (MountPoints.isMounted(mountPoint) && !MountPoints.isStale(mountPoint)) {
            run(dir, env, "umount", mountPoint.toString());
        }
        if (MountPoints.isMounted(mountPoint)) {
            try {
                MountPoints.unmount(mountPoint, true);
            } catch (IOException e) {
                System.err.println("could not detach " + mountPoint + ": " + e.getMessage());
            }
        }
        daemons(mountPoint).forEach(ProcessHandle::destroyForcibly);
    }

    /** The mount daemons serving {@code mountPoint}: processes whose command line names it and "mount". */
    static List<ProcessHandle> daemons(Path mountPoint) {
        String target = mountPoint.toString();
        try (Stream<ProcessHandle> processes = ProcessHandle.allProcesses()) {
            return processes.filter(p -> p.pid() != ProcessHandle.current().pid())
                    .filter(p -> p.info().arguments().map(a -> List.of(a).contains(target)).orElse(false))
                    .filter(p -> p.info().arguments().map(a -> List.of(a).contains("mount")).orElse(false))
                    .toList();
        }
    }
}
