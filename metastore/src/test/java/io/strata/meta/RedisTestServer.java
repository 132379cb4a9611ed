package io.strata.meta;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis server for tests (see {@link TestServers}): Debian's {@code redis-server} on a free
 * loopback port, with a password, no persistence, its files in a temporary directory; or an
 * external server from {@value TestServers#REDIS_URL_ENV}.
 */
public final class RedisTestServer {
    /** The database the tests use on a server of their own. */
    private static final int DATABASE = 1;

    private final Process process;
    private final Path dir;
    private final String url;
    private final String password;

    private RedisTestServer(Process process, Path dir, String url, String password) {
        this.process = process;
        this.dir = dir;
        this.url = url;
        this.password = password;
    }

    static RedisTestServer start() {
        Path binary = TestServers.findExecutable("redis-server", List.of(Path.of("/usr/bin"), Path.of("/usr/sbin")));
        if (binary == null) {
            throw new IllegalStateException("redis-server is not installed: the Redis metastore tests run a real"
                    + " server (Debian: apt-get install redis-server), or set " + TestServers.REDIS_URL_ENV
                    + " to one they may use");
        }
        Path dir = null;
        Process process = null;
        try {
            dir = Files.createTempDirectory("strata-redis-");
            int port = TestServers.freePort();
            String password = TestServers.randomSecret();
            Path config = dir.resolve("redis.conf");
            // in a file, not on the command line, so the password stays out of ps
            Files.writeString(config, String.join("\n",
                    "port " + port,
                    "bind 127.0.0.1",
                    "requirepass " + password,
                    "save \"\"",
                    "appendonly no",
                    "dir " + dir,
                    "logfile " + dir.resolve("redis.log"),
                    "daemonize no",
                    "databases 16",
                    ""), StandardCharsets.UTF_8);
            process = new ProcessBuilder(binary.toString(), config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
            String url = "redis://:" + password + "@127.0.0.1:" + port + "/" + DATABASE;
            RedisTestServer server = new RedisTestServer(process, dir, url, password);
            server.awaitReady();
            return server;
        } catch (IOException | RuntimeException e) {
            if (process != null) {
                process.destroyForcibly();
            }
            String log = dir == null ? "" : read(dir.resolve("redis.log")) + read(dir.resolve("stdout.log"));
            TestServers.deleteTree(dir);
            throw new IllegalStateException("cannot start redis-server: " + e.getMessage() + "\n" + log, e);
        }
    }

    static RedisTestServer external(String url) {
        String password = URI.create(url).getUserInfo();
        RedisTestServer server = new RedisTestServer(null, null, url,
                password == null ? null : password.substring(password.indexOf(':') + 1));
        server.awaitReady();
        return server;
    }

    /** The URL of the test database, emptied: a new volume for one test. */
    public String freshVolume() {
        try (Jedis jedis = new Jedis(URI.create(url))) {
            jedis.flushDB();
        }
        return url;
    }

    /** The URL of the test database as it is. */
    public String url() {
        return url;
    }

    /** The server's password (null if it has none). */
    public String password() {
        return password;
    }

    /** A client on the test database, for checks that look at keys directly. */
    public Jedis client() {
        return new Jedis(URI.create(url));
    }

    void stop() {
        if (process == null) {
            return;
        }
        process.destroy(); // SIGTERM: redis-server exits at once without persistence
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        TestServers.deleteTree(dir);
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (Jedis jedis = new Jedis(URI.create(url))) {
                jedis.ping();
                return;
            } catch (JedisException e) {
                if (process != null && !process.isAlive()) {
                    throw new IllegalStateException("redis-server exited with " + process.exitValue(), e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("redis at " + MetaStoreUrls.redact(url) + " does not answer: "
                            + e.getMessage(), e);
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
