package io.strata.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/strata} as a user runs it, in its own JVM ({@code ${strata.home}/bin/strata}; surefire
 * sets {@code strata.home}). Its output goes to a file, read once it has exited, so a daemon it
 * leaves behind never holds a pipe open.
 */
final class StrataCommand {
    private static final long TIMEOUT_SECONDS = 120;

    record Result(int exit, String output) {
        Result assertOk() {
            if (exit != 0) {
                throw new AssertionError("bin/strata exited " + exit + ":\n" + output);
            }
            return this;
        }
    }

    private StrataCommand() {}

    static Path launcher() {
        return Path.of(System.getProperty("strata.home", "."), "bin", "strata");
    }

    /** Runs {@code bin/strata args...} in {@code dir} with {@code env} on top of this JVM's environment. */
    static Result run(Path dir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(launcher().toString());
        command.addAll(List.of(args));
        Path output = Files.createTempFile(dir, "strata-", ".out");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("bin/strata " + String.join(" ", args) + " still running after "
                    + TIMEOUT_SECONDS + " s:\n" + Files.readString(output));
        }
        return new Result(process.exitValue(), Files.readString(output));
    }

    /** Whether something is mounted at {@code mountPoint}, as the kernel's mount table says. */
    static boolean isMounted(Path mountPoint) throws IOException {
        String target = " " + mountPoint.toAbsolutePath().normalize() + " ";
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().anyMatch(line -> line.contains(target));
    }

    /**
     * Takes down whatever a test left at {@code mountPoint}: {@code bin/strata umount}, then a lazy
     * {@code fusermount -u -z} if it is still there (a leaked FUSE mount breaks later runs).
     */
    static void unmount(Path dir, Map<String, String> env, Path mountPoint) throws IOException, InterruptedException {
        if (!isMounted(mountPoint)) {
            return;
        }
        Result umount = run(dir, env, "umount", mountPoint.toString());
        if (isMounted(mountPoint)) {
            new ProcessBuilder("fusermount", "-u", "-z", mountPoint.toString()).inheritIO().start()
                    .waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("still mounted after bin/strata umount (detached):\n" + umount.output());
        }
    }
}
