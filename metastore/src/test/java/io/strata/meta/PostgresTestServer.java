package io.strata.meta;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A PostgreSQL server for tests (see {@link TestServers}): Debian's {@code postgresql} binaries
 * ({@code initdb}, {@code pg_ctl}) run a new cluster in a temporary directory, UTF8 with the C
 * locale, password (SCRAM) logins over TCP on a free loopback port, the socket in that
 * directory, no fsync. PostgreSQL refuses to run as root, so as root the commands run as the
 * {@code postgres} user ({@code runuser}). Or an external server from
 * {@value TestServers#POSTGRES_URL_ENV}.
 *
 * <p>Each test gets a volume of its own ({@link #freshVolume()}, and {@link #anotherVolume()} for
 * more): a new schema in one test database, which the metastore URL selects with the driver's
 * {@code currentSchema} parameter. A schema costs a few milliseconds where a new database costs a
 * copy of the template. Every schema named {@code volume*} in the test database belongs to the
 * tests: {@link #freshVolume()} drops them.
 */
public final class PostgresTestServer implements TestDatabase {
    private static final String USER = "strata";
    private static final String SYSTEM_USER = "postgres";
    private static final String DATABASE = "strata_test";

    private final Path dir;
    private final List<String> asOwner;
    private final Path binaries;
    /** jdbc:postgresql://host:port/ */
    private final String server;
    /** jdbc:postgresql://host:port/database: where the volumes are made */
    private final String database;
    private final String user;
    private final String password;
    private final String prefix = "volume_" + ProcessHandle.current().pid() + "_";
    private final AtomicInteger schemas = new AtomicInteger();
    private String current;

    private PostgresTestServer(Path dir, List<String> asOwner, Path binaries, String database, String user,
                               String password) {
        this.server = database.substring(0, database.indexOf('/', "jdbc:postgresql://".length()) + 1);
        this.dir = dir;
        this.asOwner = asOwner;
        this.binaries = binaries;
        this.database = database;
        this.user = user;
        this.password = password;
    }

    static PostgresTestServer start() {
        Path binaries = findBinaries();
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> asOwner = root ? List.of("runuser", "-u", SYSTEM_USER, "--") : List.of();
        Path dir = null;
        try {
            dir = Files.createTempDirectory("strata-pg-");
            String password = TestServers.randomSecret();
            Path passwordFile = dir.resolve("password");
            Files.writeString(passwordFile, password + "\n", StandardCharsets.UTF_8);
            if (root) {
                chownToPostgres(dir);
                chownToPostgres(passwordFile);
            }
            Path log = dir.resolve("setup.log");
            Files.createFile(log);
            TestServers.run(command(asOwner, binaries.resolve("initdb").toString(), "-D", dir.resolve("data").toString(),
                    "-U", USER, "--pwfile=" + passwordFile, "-E", "UTF8", "--locale=C", "--auth-local=trust",
                    "--auth-host=scram-sha-256", "-N"), log);
            int port = TestServers.freePort();
            String options = "-p " + port + " -k " + dir + " -F -c listen_addresses=127.0.0.1"
                    + " -c max_connections=200 -c shared_buffers=32MB";
            TestServers.run(command(asOwner, binaries.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(),
                    "-l", dir.resolve("server.log").toString(), "-w", "-t", "60", "-o", options, "start"), log);
            String server = "jdbc:postgresql://127.0.0.1:" + port + "/";
            try (Connection connection = DriverManager.getConnection(server + "postgres", USER, password);
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + DATABASE + " ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
                        + " TEMPLATE template0");
            }
            return new PostgresTestServer(dir, asOwner, binaries, server + DATABASE, USER, password);
        } catch (IOException | SQLException | RuntimeException e) {
            TestServers.deleteTree(dir);
            throw new IllegalStateException("cannot start PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** An external server: {@code jdbc:postgresql://host:port/db?user=U&password=P}, a database to make schemas in. */
    static PostgresTestServer external(String url) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        if (!url.startsWith("jdbc:postgresql://") || base.indexOf('/', "jdbc:postgresql://".length()) < 0) {
            throw new IllegalStateException(TestServers.POSTGRES_URL_ENV
                    + " must be jdbc:postgresql://host:port/database?user=NAME&password=SECRET");
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
        return new PostgresTestServer(null, List.of(), null, base, user, password);
    }

    /**
     * A new, empty volume for one test: its metastore URL, with user and password. The volumes of
     * the test before (every schema named {@code volume*} in the test database) are dropped.
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
        String schema = prefix + schemas.incrementAndGet();
        try (Connection connection = connectToDatabase(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create schema " + schema + ": " + e.getMessage(), e);
        }
        current = schema;
        return url(user, password);
    }

    /** The metastore URL of the volume made last, with the given credentials (null: none). */
    @Override
    public synchronized String url(String user, String password) {
        return databaseUrl(databaseName(), user, password) + (user == null && password == null ? "?" : "&")
                + "currentSchema=" + current;
    }

    /** The schema of the volume made last. */
    public synchronized String currentSchema() {
        return current;
    }

    @Override
    public String currentVolume() {
        return currentSchema();
    }

    /** A JDBC connection to the volume made last, for checks that look at its tables directly. */
    @Override
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(user, password));
    }

    /** The URL of {@code database} on this server with the given credentials (null: none), no schema chosen. */
    private String databaseUrl(String database, String user, String password) {
        StringBuilder url = new StringBuilder(server).append(database);
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

    /** Drops every schema named volume* in the test database. */
    private void dropVolumes() throws SQLException {
        try (Connection connection = connectToDatabase(); Statement statement = connection.createStatement()) {
            List<String> volumes = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery(
                    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'volume%'")) {
                while (rows.next()) {
                    volumes.add(rows.getString(1));
                }
            }
            for (String schema : volumes) {
                statement.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
            }
        }
    }

    private Connection connectToDatabase() throws SQLException {
        return DriverManager.getConnection(databaseUrl(databaseName(), user, password));
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String password() {
        return password;
    }

    private String databaseName() {
        return database.substring(server.length());
    }

    synchronized void stop() {
        try {
            dropVolumes();
        } catch (SQLException ignored) {
            // the server goes away next, or it is external and keeps the last test's schemas
        }
        current = null;
        if (dir == null) {
            return;
        }
        try {
            TestServers.run(command(asOwner, binaries.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(),
                    "-m", "immediate", "-w", "stop"), dir.resolve("setup.log"));
        } catch (RuntimeException ignored) {
            // already stopped
        }
        TestServers.deleteTree(dir);
    }

    private static Path findBinaries() {
        List<Path> versions = new ArrayList<>();
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(lib)) {
                entries.forEach(version -> versions.add(version.resolve("bin")));
            } catch (IOException ignored) {
                // then only the PATH
            }
        }
        versions.sort(Comparator.comparing((Path p) -> versionOf(p)).reversed());
        Path initdb = TestServers.findExecutable("initdb", versions);
        if (initdb == null || !Files.isExecutable(initdb.resolveSibling("pg_ctl"))) {
            throw new IllegalStateException("PostgreSQL is not installed: the PostgreSQL metastore tests run a real"
                    + " server with initdb and pg_ctl (Debian: apt-get install postgresql), or set "
                    + TestServers.POSTGRES_URL_ENV + " to one they may use");
        }
        return initdb.getParent();
    }

    private static int versionOf(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static List<String> command(List<String> prefix, String... command) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(List.of(command));
        return all;
    }

    private static void chownToPostgres(Path path) throws IOException {
        UserPrincipalLookupService lookup = path.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal owner = lookup.lookupPrincipalByName(SYSTEM_USER);
        GroupPrincipal group = lookup.lookupPrincipalByGroupName(SYSTEM_USER);
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        view.setOwner(owner);
        view.setGroup(group);
    }
}
