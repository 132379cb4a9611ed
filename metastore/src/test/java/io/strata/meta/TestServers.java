package io.strata.meta;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real Redis, PostgreSQL and MariaDB servers for the engines' tests: started on first use, once per test
 * JVM, on free loopback ports with their files in a temporary directory, and stopped at the end
 * of the test run (a JVM shutdown hook is the safety net). Test classes that use them say
 * {@code @ExtendWith(TestServers.class)}.
 *
 * <p>The servers come from the system's packages: Debian's {@code redis-server},
 * {@code postgresql} and {@code mariadb-server}. A missing one fails the test with the package to install; it never skips.
 * Instead of starting their own, the tests use existing servers named by these environment
 * variables:
 *
 * <ul>
 *   <li>{@code STRATA_TEST_REDIS_URL}, e.g. {@code redis://:secret@localhost:6379/15}: that
 *       database is flushed before each test;</li>
 *   <li>{@code STRATA_TEST_POSTGRES_URL}, e.g.
 *       {@code jdbc:postgresql://localhost:5432/strata?user=strata&password=secret}: a UTF8
 *       database the role may create schemas in; each test gets a schema of its own, dropped
 *       after it;</li>
 *   <li>{@code STRATA_TEST_MARIADB_URL}, e.g.
 *       {@code jdbc:mariadb://localhost:3306/?user=strata&password=secret}: a user that may create
 *       databases; each test gets a database of its own, dropped after it.</li>
 * </ul>
 */
public final class TestServers implements BeforeAllCallback {
    public static final String REDIS_URL_ENV = "STRATA_TEST_REDIS_URL";
    public static final String POSTGRES_URL_ENV = "STRATA_TEST_POSTGRES_URL";
    public static final String MARIADB_URL_ENV = "STRATA_TEST_MARIADB_URL";

    private static RedisTestServer redis;
    private static PostgresTestServer postgres;
    private static MariaDbTestServer mariadb;
    private static boolean hooked;

    /** The Redis server, started on first call. */
    public static synchronized RedisTestServer redis() {
        if (redis == null) {
            hook();
            String external = System.getenv(REDIS_URL_ENV);
            redis = external != null && !external.isBlank() ? RedisTestServer.external(external)
                    : RedisTestServer.start();
        }
        return redis;
    }

    /** The PostgreSQL server, started on first call. */
    public static synchronized PostgresTestServer postgres() {
        if (postgres == null) {
            hook();
            String external = System.getenv(POSTGRES_URL_ENV);
            postgres = external != null && !external.isBlank() ? PostgresTestServer.external(external)
                    : PostgresTestServer.start();
        }
        return postgres;
    }

    /** The MariaDB server, started on first call. */
    public static synchronized MariaDbTestServer mariadb() {
        if (mariadb == null) {
            hook();
            String external = System.getenv(MARIADB_URL_ENV);
            mariadb = external != null && !external.isBlank() ? MariaDbTestServer.external(external)
                    : MariaDbTestServer.start();
        }
        return mariadb;
    }

    /** Stops whatever was started. */
    static synchronized void stopAll() {
        if (redis != null) {
            redis.stop();
            redis = null;
        }
        if (postgres != null) {
            postgres.stop();
            postgres = null;
        }
        if (mariadb != null) {
            mariadb.stop();
            mariadb = null;
        }
    }

    /** Stops the servers when the whole test run ends (the root context closes), not after each class. */
    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.create(TestServers.class))
                .getOrComputeIfAbsent("servers", key -> (ExtensionContext.Store.CloseableResource) TestServers::stopAll);
    }

    private static void hook() {
        if (!hooked) {
            hooked = true;
            Runtime.getRuntime().addShutdownHook(new Thread(TestServers::stopAll, "strata-test-servers-stop"));
        }
    }

    // --- shared by the servers

    /** A free TCP port on the loopback interface (free now; the server binds it a moment later). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    static String randomSecret() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The first executable named {@code name} in {@code dirs}, then on the PATH; null if none. */
    static Path findExecutable(String name, List<Path> dirs) {
        List<Path> candidates = new ArrayList<>(dirs);
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir));
            }
        }
        for (Path dir : candidates) {
            Path file = dir.resolve(name);
            if (Files.isExecutable(file)) {
                return file;
            }
        }
        return null;
    }

    /** Runs a command to its end; fails with its output if it exits non-zero. */
    static String run(List<String> command, Path log) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("failed (exit " + process.exitValue() + "): "
                        + String.join(" ", command) + "\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }

    /** Deletes a directory tree, as far as it can. */
    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // a leftover in the temporary directory is harmless
                }
            });
        } catch (IOException ignored) {
            // as above
        }
    }
}
