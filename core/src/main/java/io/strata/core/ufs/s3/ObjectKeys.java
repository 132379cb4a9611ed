package io.strata.core.ufs.s3;

import software.amazon.awssdk.utils.http.SdkHttpUtils;

/** An object key as it goes into a request's path. */
final class ObjectKeys {
    private ObjectKeys() {}

    /**
     * The key percent-encoded as SigV4 wants it, slashes kept: what
     * {@link SdkHttpUtils#urlEncodeIgnoreSlashes} gives. A key of unreserved characters and
     * slashes alone, as most are, is its own encoding and is returned as it is: the SDK's
     * encoder runs {@code URLEncoder} and a regular expression over every key, a cost each
     * request paid, and code a fresh daemon compiled, for nothing.
     */
    static String encodedForPath(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (!keptAsIs(key.charAt(i))) {
                return SdkHttpUtils.urlEncodeIgnoreSlashes(key);
            }
        }
        return key;
    }

    /** RFC 3986's unreserved characters, and the path's slash. */
    private static boolean keptAsIs(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '_' || c == '.' || c == '~' || c == '/';
    }
}
