package io.strata.meta;

import io.strata.meta.memory.MemoryMetaStore;
import io.strata.meta.postgres.PostgresMetaStore;
import io.strata.meta.redis.RedisMetaStore;
import io.strata.meta.sql.SqlMetaStore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/** Opens a {@link MetaStore} engine chosen by the scheme of a metastore URL. */
public final class MetaStores {
    /**
     * The setting every engine keeps the volume's format version under. It is written when a
     * volume is created and cannot be changed with {@link MetaStore#putSetting}.
     */
    public static final String FORMAT_VERSION_KEY = "format_version";

    /** The format version this build writes; an engine refuses a volume with a newer one. */
    public static final int FORMAT_VERSION = 1;

    /**
     * The environment variable a shared engine (PostgreSQL, Redis) takes its password from when
     * the URL has none, so that the password stays out of command lines and mount tables.
     */
    public static final String PASSWORD_ENV = "STRATA_META_PASSWORD";

    private static final String SUPPORTED = "use sqlite:///path/meta.db, memory://, "
            + "jdbc:postgresql://host:port/db or redis://host:port/db";

    // password=... in a query string, as JDBC URLs carry it
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)\\b(password|passwd|pwd)=[^&;]*");

    private MetaStores() {}

    /**
     * Opens the metastore at {@code url}: {@code memory://} (a new, empty, private volume),
     * {@code sqlite:///absolute/path/meta.db} (created with its parent directories if missing),
     * {@code jdbc:postgresql://host[:port]/db[?user=U&password=P]} or
     * {@code redis[s]://[[user]:password@]host[:port][/db]} (formatted as a new volume if empty).
     * Without a password in the URL, PostgreSQL and Redis take it from {@value #PASSWORD_ENV}.
     *
     * @throws IllegalArgumentException for a malformed URL or an unsupported scheme
     * @throws IOException if the engine cannot be opened
     */
    public static MetaStore open(String url) throws IOException {
        requireNonNull(url, "url is null");
        int colon = url.indexOf("://");
        String scheme = colon < 0 ? "" : url.substring(0, colon).toLowerCase(Locale.ROOT);
        String rest = colon < 0 ? "" : url.substring(colon + 3);
        switch (scheme) {
            case "memory" -> {
                if (!rest.isEmpty()) {
                    throw new IllegalArgumentException("metastore URL '" + redact(url)
                            + "' names no path: memory:// is always a new, private volume");
                }
                return new MemoryMetaStore();
            }
            case "sqlite" -> {
                // sqlite:///abs/path: an empty authority, then an absolute path
                if (!rest.startsWith("/") || rest.length() == 1) {
                    throw new IllegalArgumentException("metastore URL '" + redact(url)
                            + "' needs an absolute path: sqlite:///path/meta.db");
                }
                return SqlMetaStore.openSqlite(Path.of(rest));
            }
            case "jdbc:postgresql" -> {
                return PostgresMetaStore.open(url);
            }
            case "redis", "rediss" -> {
                return RedisMetaStore.open(url);
            }
            default -> throw new IllegalArgumentException("unsupported metastore URL '" + redact(url) + "': "
                    + SUPPORTED);
        }
    }

    /**
     * The URL with any password masked, for messages and logs: the password of the user info
     * ({@code scheme://user:***@host}) and {@code password=} parameters. It errs towards masking
     * too much: everything from the first ':' after "://" to the last '@' goes.
     */
    public static String redact(String url) {
        requireNonNull(url, "url is null");
        String masked = url;
        int authority = url.indexOf("://") + 3;
        int at = url.lastIndexOf('@');
        if (authority >= 3 && at > authority && url.charAt(authority) != '/') {
            int colon = url.indexOf(':', authority);
            if (colon >= 0 && colon < at) {
                masked = url.substring(0, colon + 1) + "***" + url.substring(at);
            }
        }
        return PASSWORD_PARAMETER.matcher(masked).replaceAll("$1=***");
    }
}
