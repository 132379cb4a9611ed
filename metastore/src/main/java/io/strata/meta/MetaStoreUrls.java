package io.strata.meta;

import java.util.Locale;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * What every engine and every caller does with a metastore URL the same way: its scheme, the
 * environment variable a password may come from, and the URL with its password masked.
 */
public final class MetaStoreUrls {
    /**
     * The environment variable a shared engine (PostgreSQL, MariaDB, Redis) takes its password
     * from when the URL has none, so that the password stays out of command lines and mount tables.
     */
    public static final String PASSWORD_ENV = "STRATA_META_PASSWORD";

    // password=... in a query string, as JDBC URLs carry it
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)\\b(password|passwd|pwd)=[^&;]*");

    private MetaStoreUrls() {}

    /** The scheme, lower case: everything before "://" ("jdbc:postgresql" for a JDBC URL), or "" for none. */
    public static String scheme(String url) {
        requireNonNull(url, "url is null");
        int colon = url.indexOf("://");
        return colon < 0 ? "" : url.substring(0, colon).toLowerCase(Locale.ROOT);
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
