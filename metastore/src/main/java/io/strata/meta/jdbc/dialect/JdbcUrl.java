package io.strata.meta.jdbc.dialect;

import io.strata.meta.MetaStoreUrls;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * A {@code jdbc:<database>://host[:port]/database[?user=U&password=P&...]} metastore URL taken
 * apart: the JDBC URL without credentials (other parameters such as {@code sslmode} pass through
 * to the driver), the user and the password. The password comes from the URL or, when the URL has
 * none, from the environment variable {@value MetaStoreUrls#PASSWORD_ENV}; it never appears in
 * {@link #describe()} or {@link #toString()}.
 */
public final class JdbcUrl {
    private final String jdbcUrl;
    private final String user;
    private final String password;

    private JdbcUrl(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /**
     * Parses {@code url}, which starts with {@code prefix} (e.g. "jdbc:postgresql://", in any
     * case), into a JDBC URL that starts with {@code driverPrefix} instead; {@code environment}
     * looks up environment variables (System::getenv).
     *
     * @throws IllegalArgumentException for a URL that is not {@code prefix host/database}
     */
    public static JdbcUrl parse(String url, String prefix, String driverPrefix, Function<String, String> environment) {
        requireNonNull(url, "url is null");
        requireNonNull(environment, "environment is null");
        if (!url.regionMatches(true, 0, prefix, 0, prefix.length())) {
            throw new IllegalArgumentException("not a " + prefix + " metastore URL: '" + MetaStoreUrls.redact(url) + "'");
        }
        int query = url.indexOf('?');
        String authority = url.substring(prefix.length(), query < 0 ? url.length() : query);
        int slash = authority.indexOf('/');
        if (slash <= 0 || slash == authority.length() - 1 || authority.contains("@")) {
            throw new IllegalArgumentException("metastore URL '" + MetaStoreUrls.redact(url) + "' must be " + prefix
                    + "host[:port]/database[?user=NAME&password=SECRET]");
        }
        String user = null;
        String password = null;
        List<String> kept = new ArrayList<>();
        if (query >= 0) {
            for (String parameter : url.substring(query + 1).split("&")) {
                if (parameter.isEmpty()) {
                    continue;
                }
                int equals = parameter.indexOf('=');
                String key = equals < 0 ? parameter : parameter.substring(0, equals);
                String value = equals < 0 ? "" : URLDecoder.decode(parameter.substring(equals + 1),
                        StandardCharsets.UTF_8);
                switch (key) {
                    case "user" -> user = value;
                    case "password" -> password = value;
                    default -> kept.add(parameter);
                }
            }
        }
        if (password == null) {
            password = environment.apply(MetaStoreUrls.PASSWORD_ENV);
        }
        String base = driverPrefix + authority;
        return new JdbcUrl(kept.isEmpty() ? base : base + "?" + String.join("&", kept), user, password);
    }

    /** The JDBC URL to connect to, without user or password. */
    public String jdbcUrl() {
        return jdbcUrl;
    }

    /** The user to log in as, or null for the driver's default. */
    public String user() {
        return user;
    }

    /** The password, or null; never print it. */
    public String password() {
        return password;
    }

    /** Where the database is, for messages: the URL with the user but never the password. */
    public String describe() {
        if (user == null) {
            return jdbcUrl;
        }
        return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "user=" + user;
    }

    @Override
    public String toString() {
        return describe();
    }
}
