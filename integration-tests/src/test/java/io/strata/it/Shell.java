package io.strata.it;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs real programs (coreutils, attr, fio, python3, bin/strata) with a time limit and hands back
 * their exit status and output; a program that overruns its limit is killed and fails the test.
 */
final class Shell {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private Shell() {}

    /** What a program did: its exit status, stdout and stderr. */
    record Result(List<String> command, int exit, String out, String err) {
        /** Fails the test, showing everything the program said, unless it exited 0. */
        Result assertOk() {
            if (exit != 0) {
                fail(describe());
            }
            return this;
        }

        String describe() {
            return String.join(" ", command) + " exited " + exit + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
        }
    }

    /** {@code sh -c script} in {@code dir}, with TZ=UTC so that dates print the same everywhere. */
    static Result sh(Path dir, String script) {
        return run(dir, Map.of("TZ", "UTC"), DEFAULT_TIMEOUT, List.of("sh", "-c", script));
    }

    /** {@code command} as user and group 65534 (nobody) with no other groups: another user than the mount's. */
    static Result asNobody(String... command) {
        List<String> full = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        full.addAll(List.of(command));
        return run(null, Map.of(), DEFAULT_TIMEOUT, full);
    }

    static Result run(Path dir, String... command) {
        return run(dir, Map.of(), DEFAULT_TIMEOUT, List.of(command));
    }

    static Result run(Path dir, Map<String, String> env, Duration timeout, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
            }
            return new Result(command, process.exitValue(), out.get(10, TimeUnit.SECONDS),
                    err.get(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted while running " + command, e);
        } catch (Exception e) {
            throw new AssertionError("cannot read the output of " + command, e);
        }
    }

    private static String drain(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /**
     * The errno name ({@code "ENOENT"}) a Python statement fails with, or {@code "OK"}. The
     * statement sees {@code a} and {@code b}, the first two paths, as strings; {@code os},
     * {@code errno} are imported.
     */
    static String errnoOf(String statement, Path... paths) {
        String script = String.join("\n",
                "import errno, os, sys",
                "a = sys.argv[1] if len(sys.argv) > 1 else None",
                "b = sys.argv[2] if len(sys.argv) > 2 else None",
                "try:",
                "    " + statement.replace("\n", "\n    "),
                "    print('OK')",
                "except OSError as e:",
                "    print(errno.errorcode.get(e.errno, str(e.errno)))");
        List<String> command = new java.util.ArrayList<>(List.of("python3", "-c", script));
        for (Path path : paths) {
            command.add(path.toString());
        }
        Result result = run(null, Map.of(), DEFAULT_TIMEOUT, command).assertOk();
        return result.out().strip();
    }
}
