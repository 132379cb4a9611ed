package io.strata.meta.redis;

import io.strata.meta.MetaStoreUrls;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * A {@code redis://[[user]:password@]host[:port][/db]} metastore URL ({@code rediss://} for TLS)
 * taken apart. The password comes from the URL or, when the URL has none, from the environment
 * variable {@value MetaStoreUrls#PASSWORD_ENV}; it never appears in {@link #describe()}.
 */
final class RedisUrl {
    static final int DEFAULT_PORT = 6379;
    /** How long connecting, and each command, may take before the call fails (EIO upstream). */
    private static final int TIMEOUT_MILLIS = 10_000;

    private final boolean tls;
    private final String host;
    private final int port;
    private final int database;
    private final String user;
    private final String password;

    private RedisUrl(boolean tls, String host, int port, int database, String user, String password) {
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
    }

    /**
     * Parses {@code url}; {@code environment} looks up environment variables (System::getenv).
     *
     * @throws IllegalArgumentException for a URL that is not {@code redis://host[:port][/db]}
     */
    static RedisUrl parse(String url, Function<String, String> environment) {
        requireNonNull(url, "url is null");
        requireNonNull(environment, "environment is null");
        String usage = "metastore URL '" + MetaStoreUrls.redact(url) + "' must be redis[s]://[[user]:password@]host[:port][/db]";
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(usage); // the exception's message would quote the password
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("redis") && !scheme.equals("rediss") || uri.getHost() == null
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(usage);
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        int database = 0;
        if (!path.isEmpty() && !path.equals("/")) {
            try {
                database = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(usage + ": the database is a number, not '" + path.substring(1) + "'");
            }
            if (database < 0) {
                throw new IllegalArgumentException(usage + ": the database is a number from 0");
            }
        }
        String user = null;
        String password = null;
        String userInfo = uri.getUserInfo(); // decoded: %40 is '@'
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                user = userInfo;
            } else {
                user = colon == 0 ? null : userInfo.substring(0, colon);
                password = userInfo.substring(colon + 1);
            }
        }
        if (password == null || password.isEmpty()) {
            password = environment.apply(MetaStoreUrls.PASSWORD_ENV);
        }
        int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
        return new RedisUrl(scheme.equals("rediss"), uri.getHost(), port, database, user, password);
    }

    HostAndPort hostAndPort() {
        return new HostAndPort(host, port);
    }

    /** The client settings: the database, credentials, TLS and timeouts. */
    JedisClientConfig clientConfig() {
        return DefaultJedisClientConfig.builder()
                .database(database)
                .user(user)
                .password(password == null || password.isEmpty() ? null : password)
                .ssl(tls)
                .clientName("strata")
                .connectionTimeoutMillis(TIMEOUT_MILLIS)
                .socketTimeoutMillis(TIMEOUT_MILLIS)
                .build();
    }

    /** Where the volume is, for messages: never the password. */
    String describe() {
        String credentials = user == null && password == null ? "" : (user == null ? "" : user)
                + (password == null ? "" : ":***") + "@";
        return (tls ? "rediss" : "redis") + "://" + credentials + host + ":" + port + "/" + database;
    }

    @Override
    public String toString() {
        return describe();
    }
}
