package io.strata.meta.jdbc;

import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreEngine;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.jdbc.dialect.JdbcUrl;
import io.strata.meta.jdbc.dialect.MariaDbDialect;
import io.strata.meta.jdbc.dialect.PostgresDialect;
import io.strata.meta.jdbc.dialect.SqliteDialect;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The JDBC engine's entries in the {@link MetaStoreEngine} registry: one per database, each
 * making its dialect from the URL (a password it lacks comes from
 * {@value MetaStoreUrls#PASSWORD_ENV}).
 */
public final class JdbcEngines {
    private JdbcEngines() {}

    /** {@code sqlite:///absolute/path/meta.db}, created with its parent directories if missing. */
    public static final class Sqlite implements MetaStoreEngine {
        @Override
        public List<String> schemes() {
            return List.of("sqlite");
        }

        @Override
        public String usage() {
            return "sqlite:///path/meta.db";
        }

        @Override
        public MetaStore open(String url) throws IOException {
            String path = url.substring(url.indexOf("://") + 3);
            // sqlite:///abs/path: an empty authority, then an absolute path
            if (!path.startsWith("/") || path.length() == 1) {
                throw new IllegalArgumentException("metastore URL '" + MetaStoreUrls.redact(url)
                        + "' needs an absolute path: sqlite:///path/meta.db");
            }
            return JdbcMetaStore.open(new SqliteDialect(Path.of(path)));
        }
    }

    /** {@code jdbc:postgresql://host[:port]/db[?user=U&password=P&...]}. */
    public static final class Postgres implements MetaStoreEngine {
        private static final String PREFIX = "jdbc:postgresql://";

        @Override
        public List<String> schemes() {
            return List.of("jdbc:postgresql");
        }

        @Override
        public String usage() {
            return PREFIX + "host:port/db";
        }

        @Override
        public MetaStore open(String url) throws IOException {
            return open(url, System::getenv);
        }

        /** {@link #open(String)} with the environment given, for tests. */
        static MetaStore open(String url, Function<String, String> environment) throws IOException {
            return JdbcMetaStore.open(new PostgresDialect(JdbcUrl.parse(url, PREFIX, PREFIX, environment)));
        }
    }

    /** {@code jdbc:mariadb://host[:port]/db[?user=U&password=P&...]}, or {@code jdbc:mysql://...}. */
    public static final class MariaDb implements MetaStoreEngine {
        @Override
        public List<String> schemes() {
            return List.of("jdbc:mariadb", "jdbc:mysql");
        }

        @Override
        public String usage() {
            return MariaDbDialect.DRIVER_PREFIX + "host:port/db";
        }

        @Override
        public MetaStore open(String url) throws IOException {
            return open(url, System::getenv);
        }

        /** {@link #open(String)} with the environment given, for tests. */
        static MetaStore open(String url, Function<String, String> environment) throws IOException {
            String prefix = MetaStoreUrls.scheme(url) + "://";
            return JdbcMetaStore.open(new MariaDbDialect(JdbcUrl.parse(url, prefix, MariaDbDialect.DRIVER_PREFIX,
                    environment)));
        }
    }
}
