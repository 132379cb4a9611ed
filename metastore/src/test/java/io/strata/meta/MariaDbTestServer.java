package io.strata.meta;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A MariaDB server for tests (see {@link TestServers}): Debian's {@code mariadb-server} binaries
 * ({@code mariadb-install-db}, {@code mariadbd}) run a new data directory in a temporary
 * directory, on a free loopback port, no binary log and no flush at commit; an init file makes a
 * user with a random password that may create databases. As root, the server runs as root
 * ({@code --user=root}). Or an external server from {@value TestServers#MARIADB_URL_ENV}.
 *
 * <p>Each test gets a volume of its own ({@link #freshVolume()}, and {@link #anotherVolume()} for
 * more): a new database, which costs a directory. Every database named {@code volume_<pid>_*}
 * belongs to this test JVM: {@link #freshVolume()} drops them.
 */
public final class MariaDbTestServer implements TestDatabase {
    private static final String USER = "strata";

    private final Path dir;
    private final Process server;
    /** jdbc:mariadb://host:port/ */
    private final String base;
    private final String user;
    private final String password;
    private final String prefix = "volume_" + ProcessHandle.current().pid() + "_";
    private final AtomicInteger databases = new AtomicInteger();
    private String current;

    private MariaDbTestServer(Path dir, Process server, String base, String user, String password) {
        this.dir = dir;
        this.server = server;
        this.base = base;
        this.user = user;
        this.password = password;
    }

    static MariaDbTestServer start() {
        Path mariadbd = TestServers.findExecutable("mariadbd", List.of(Path.of("/usr/sbin")));
        Path installDb = TestServers.findExecutable("mariadb-install-db", List.of(Path.of("/usr/bin")));
        if (mariadbd == null || installDb == null) {
            throw new IllegalStateException("MariaDB is not installed: the MariaDB metastore tests run a real server"
                    + " with mariadb-install-db and mariadbd (Debian: apt-get install mariadb-server), or set "
                    + TestServers.MARIADB_URL_ENV + " to one they may use");
        }
        Path dir = null;
        Process server = null;
        try {
            dir = Files.createTempDirectory("strata-mariadb-");
            String password = TestServers.randomSecret();
            Path log = dir.resolve("setup.log");
            Files.createFile(log);
            List<String> common = List.of("--no-defaults", "--datadir=" + dir.resolve("data"), "--user=root");
            List<String> install = new ArrayList<>(List.of(installDb.toString()));
            install.addAll(common);
            install.addAll(List.of("--auth-root-authentication-method=socket", "--skip-test-db"));
            TestServers.run(install, log);
            Path init = dir.resolve("init.sql");
            Files.writeString(init, "CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + password + "';\n"
                    + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'127.0.0.1';\n", StandardCharsets.UTF_8);
            int port = TestServers.freePort();
            List<String> command = new ArrayList<>(List.of(mariadbd.toString()));
            command.addAll(common);
            command.addAll(List.of("--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("sock"),
                    "--pid-file=" + dir.resolve("pid"), "--init-file=" + init, "--skip-name-resolve",
                    "--skip-log-bin", "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0",
                    "--innodb-buffer-pool-size=64M", "--max-connections=300", "--log-error=" + dir.resolve("server.log")));
            server = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            String base = "jdbc:mariadb://127.0.0.1:" + port + "/";
            awaitConnection(server, base, password, dir);
            return new MariaDbTestServer(dir, server, base, USER, password);
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.destroyForcibly();
            }
            TestServers.deleteTree(dir);
            throw new IllegalStateException("cannot start MariaDB: " + e.getMessage(), e);
        }
    }

    private static void awaitConnection(Process server, String base, String password, Path dir) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("mariadbd exited " + server.exitValue() + ":\n"
                        + Files.readString(dir.resolve("server.log"), StandardCharsets.UTF_8));
            }
            try (Connection ignored = DriverManager.getConnection(base, USER, password)) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for mariadbd", e);
            }
        }
        throw new IllegalStateException("mariadbd did not accept connections within 60 s: "
                + (last == null ? "" : last.getMessage()));
    }

    /** An external server: {@code jdbc:mariadb://host:port/?user=U&password=P}, a user that may create databases. */
    static MariaDbTestServer external(String url) {
        int query = url.indexOf('?');
        String address = query < 0 ? url : url.substring(0, query);
        if (!address.startsWith("jdbc:mariadb://") && !address.startsWith("jdbc:mysql://")) {
            throw new IllegalStateException(TestServers.MARIADB_URL_ENV
                    + " must be jdbc:mariadb://host:port/?user=NAME&password=SECRET");
        }
        String user = null;
        String password = null;
        if (query >= 0) {
            for (String parameter : url.substring(query + 1).split("&")) {
                if (parameter.startsWith("user=")) {
                    user = parameter.substring(5);
                } else if (parameter.startsWith("password=")) {
                    password = parameter.substring(9);
                }
            }
        }
        String host = address.substring(address.indexOf("://") + 3);
        host = host.contains("/") ? host.substring(0, host.indexOf('/')) : host;
        return new MariaDbTestServer(null, null, "jdbc:mariadb://" + host + "/", user, password);
    }

    /**
     * A new, empty volume for one test: its metastore URL, with user and password. The volumes of
     * the test before are dropped.
     */
    @Override
    public synchronized String freshVolume() {
        try {
            dropVolumes();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop the volumes of the test before: " + e.getMessage(), e);
        }
        return anotherVolume();
    }

    /** One more new, empty volume for the same test, dropped with the others by the next {@link #freshVolume()}. */
    @Override
    public synchronized String anotherVolume() {
        String database = prefix + databases.incrementAndGet();
        try (Connection connection = connectToServer(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + database + ": " + e.getMessage(), e);
        }
        current = database;
        return url(user, password);
    }

    /** The metastore URL of the volume made last, with the given credentials (null: none). */
    @Override
    public synchronized String url(String user, String password) {
        StringBuilder url = new StringBuilder(base).append(current);
        String separator = "?";
        if (user != null) {
            url.append(separator).append("user=").append(user);
            separator = "&";
        }
        if (password != null) {
            url.append(separator).append("password=").append(password);
        }
        return url.toString();
    }

    /** The database of the volume made last. */
    @Override
    public synchronized String currentVolume() {
        return current;
    }

    /** A JDBC connection to the volume made last, for checks that look at its tables directly. */
    @Override
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(user, password));
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String password() {
        return password;
    }

    private Connection connectToServer() throws SQLException {
        return DriverManager.getConnection(base, user, password);
    }

    private void dropVolumes() throws SQLException {
        try (Connection connection = connectToServer(); Statement statement = connection.createStatement()) {
            List<String> volumes = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SHOW DATABASES LIKE '" + prefix + "%'")) {
                while (rows.next()) {
                    volumes.add(rows.getString(1));
                }
            }
            for (String database : volumes) {
                statement.execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    synchronized void stop() {
        try {
            dropVolumes();
        } catch (SQLException ignored) {
            // the server goes away next, or it is external and keeps the last test's databases
        }
        current = null;
        if (server == null) {
            return;
        }
        server.destroy(); // SIGTERM: mariadbd shuts down cleanly
        try {
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        }
        TestServers.deleteTree(dir);
    }
}
