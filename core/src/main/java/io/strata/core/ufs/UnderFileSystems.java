package io.strata.core.ufs;

import io.strata.core.conf.Options;
import io.strata.core.ufs.local.LocalUnderFileSystem;
import io.strata.core.ufs.s3.S3Location;
import io.strata.core.ufs.s3.S3Options;
import io.strata.core.ufs.s3.S3UnderFileSystem;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/** Finds the {@link UnderFileSystem} for a volume's URI by its scheme. */
public final class UnderFileSystems {
    /** {@code scheme://...}: RFC 3986 scheme characters, at least two so a drive letter is not one. */
    private static final Pattern SCHEME_URI = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]+://.*", Pattern.DOTALL);

    private UnderFileSystems() {}

    /** Opens the under storage at {@code uri} with default options; see {@link #open(URI, Options)}. */
    public static UnderFileSystem open(URI uri) throws IOException {
        return open(uri, Options.defaults());
    }

    /**
     * Opens the under storage at {@code uri}: {@code file:///abs/path} is a local directory,
     * {@code s3://bucket[/prefix]} an S3 bucket (endpoint, credentials and the rest from
     * {@code options}, see {@link S3Options}).
     *
     * @throws IllegalArgumentException for a URI of another scheme or a malformed URI
     * @throws IOException if the storage cannot be opened (a missing directory or bucket: FsException ENOENT)
     */
    public static UnderFileSystem open(URI uri, Options options) throws IOException {
        requireNonNull(uri, "uri is null");
        requireNonNull(options, "options is null");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("file")) {
            return new LocalUnderFileSystem(localPath(uri));
        }
        if (scheme.equals("s3")) {
            return S3UnderFileSystem.open(uri, options);
        }
        throw new IllegalArgumentException("unsupported under storage '" + redacted(uri)
                + "': use a local directory (file:///path) or an S3 bucket (s3://bucket/prefix)");
    }

    /**
     * The URI of a volume source as a user writes it: a plain path (relative to the working
     * directory) or a {@code file:} URI becomes an absolute, normalized {@code file:} URI without
     * a trailing slash; an {@code s3://} URI is checked and normalized the same way; any other
     * {@code scheme://} URI is returned as parsed, for {@link #open(URI)} to accept or reject.
     */
    public static URI toUri(String source) {
        requireNonNull(source, "source is null");
        if (source.isBlank()) {
            throw new IllegalArgumentException("under storage is empty: expected a directory or a URI such as "
                    + "file:///data");
        }
        boolean fileUri = source.regionMatches(true, 0, "file:", 0, 5);
        if (!fileUri && !SCHEME_URI.matcher(source).matches()) {
            return LocalUnderFileSystem.uriOf(Path.of(source).toAbsolutePath().normalize());
        }
        URI uri;
        try {
            uri = new URI(source);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bad under storage URI '" + redacted(source) + "': " + e.getReason()
                    + " (escape spaces and '%' as %20 and %25, or give a plain path)");
        }
        if (fileUri) {
            return LocalUnderFileSystem.uriOf(localPath(uri).normalize());
        }
        if ("s3".equalsIgnoreCase(uri.getScheme())) {
            return S3Location.parse(uri).uri();
        }
        return uri;
    }

    /** The absolute path of a {@code file:} URI; only an empty host or {@code localhost} is local. */
    private static Path localPath(URI uri) {
        String authority = uri.getRawAuthority();
        if (uri.isOpaque() || uri.getPath() == null || !uri.getPath().startsWith("/")) {
            throw new IllegalArgumentException("bad under storage URI '" + redacted(uri)
                    + "': expected an absolute path, as in file:///data/src");
        }
        if (authority != null && !authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
            throw new IllegalArgumentException("bad under storage URI '" + redacted(uri)
                    + "': a file URI names a local directory and has no host, as in file:///data/src");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("bad under storage URI '" + redacted(uri)
                    + "': a file URI takes no '?' or '#' part");
        }
        return Path.of(uri.getPath());
    }

    /** The URI with any user info (access keys) replaced by "****", for messages. */
    static String redacted(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri.toString();
        }
        return redacted(uri.toString());
    }

    private static String redacted(String text) {
        return text.replaceFirst("^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@", "$1****@");
    }
}
