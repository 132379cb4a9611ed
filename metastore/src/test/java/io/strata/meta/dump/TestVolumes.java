package io.strata.meta.dump;

import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.PostgresTestServer;
import io.strata.meta.TestServers;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Fresh, empty volumes of every engine for one test, closed with it: SQLite files in a temporary
 * directory, PostgreSQL schemas, MariaDB databases and Redis databases (1, 2, ...) on the test servers.
 */
final class TestVolumes implements AutoCloseable {
    static final List<String> ENGINES = List.of("memory", "sqlite", "postgres", "mariadb", "redis");

    private final Path dir;
    private final List<MetaStore> opened = new ArrayList<>();
    private int sqliteFiles;
    private int redisDatabases;
    private int postgresVolumes;
    private int mariadbVolumes;
    private final List<String> extraSchemas = new ArrayList<>();

    TestVolumes(Path dir) {
        this.dir = dir;
    }

    /** The URL of a new, empty volume of {@code engine}. */
    String freshUrl(String engine) {
        return switch (engine) {
            case "memory" -> "memory://";
            case "sqlite" -> "sqlite://" + dir.resolve("volume-" + (++sqliteFiles) + "/meta.db");
            case "postgres" -> postgres(++postgresVolumes);
            case "mariadb" -> mariadb(++mariadbVolumes);
            case "redis" -> redis(++redisDatabases);
            default -> throw new IllegalArgumentException("no engine " + engine);
        };
    }

    MetaStore fresh(String engine) throws IOException {
        return open(freshUrl(engine));
    }

    MetaStore open(String url) throws IOException {
        MetaStore store = MetaStores.open(url);
        opened.add(store);
        return store;
    }

    /** Database {@code n} of the test Redis server, emptied. */
    private static String redis(int n) {
        String first = TestServers.redis().url();
        String url = first.substring(0, first.lastIndexOf('/') + 1) + n;
        try (Jedis jedis = new Jedis(URI.create(url))) {
            jedis.flushDB();
        }
        return url;
    }

    /**
     * The first: the test's fresh volume (a new schema, which drops the one of the test before);
     * the next ones: more schemas beside it, dropped when this closes.
     */
    private String postgres(int n) {
        PostgresTestServer server = TestServers.postgres();
        if (n == 1) {
            return server.freshVolume();
        }
        String schema = server.currentSchema() + "_" + n;
        execute(server, "DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema);
        extraSchemas.add(schema);
        return server.url(server.user(), server.password())
                .replace("currentSchema=" + server.currentSchema(), "currentSchema=" + schema);
    }

    /** The first: the test's fresh volume (dropping the test before's); the next ones: more databases beside it. */
    private static String mariadb(int n) {
        return n == 1 ? TestServers.mariadb().freshVolume() : TestServers.mariadb().anotherVolume();
    }

    private static void execute(PostgresTestServer server, String... sql) {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            for (String one : sql) {
                statement.execute(one);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + String.join("; ", sql) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        for (MetaStore store : opened) {
            store.close();
        }
        for (String schema : extraSchemas) {
            execute(TestServers.postgres(), "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
