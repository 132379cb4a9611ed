package io.strata.core.ufs.s3;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A volume's place in S3, {@code s3://bucket[/prefix]}, and the object keys of its paths.
 *
 * <p>The volume path {@code a/b} is the object {@code prefix/a/b}; the directory {@code a} is the
 * key prefix {@code prefix/a/}, and its marker object (made by mkdir, so that an empty directory
 * exists) is the key {@code prefix/a/} itself. With no prefix the volume is the whole bucket.
 *
 * @param bucket the bucket name
 * @param prefix the key prefix of the volume root, without leading or trailing '/'; "" for the bucket root
 */
public record S3Location(String bucket, String prefix) {
    /** S3's rule, plus the upper case and '_' that old us-east-1 buckets may have. */
    private static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]");
    /** S3's limit on a key, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 1024;

    public S3Location {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(prefix, "prefix is null");
        if (!BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("bad bucket name '" + bucket + "'");
        }
        if (!prefix.isEmpty()) {
            checkPath(prefix, "bad key prefix '" + prefix + "'");
        }
    }

    /**
     * The location of {@code s3://bucket[/prefix][/]}; a trailing '/' is dropped, '%'-escapes are
     * decoded (a prefix with a space is written {@code %20}).
     *
     * @throws IllegalArgumentException naming what is wrong and the form to use; credentials in the
     *     URI are refused without being repeated
     */
    public static S3Location parse(URI uri) {
        requireNonNull(uri, "uri is null");
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("s3")) {
            throw new IllegalArgumentException("not an s3:// URI");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("bad S3 URI: credentials do not belong in the URI; give them with"
                    + " -o s3a.accessKeyId=...,s3a.secretKey=... or the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                    + " environment variables");
        }
        String shown = uri.toString();
        if (uri.isOpaque() || uri.getRawAuthority() == null || uri.getRawAuthority().isEmpty()) {
            throw new IllegalArgumentException("bad S3 URI '" + shown
                    + "': expected s3://bucket or s3://bucket/prefix");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("bad S3 URI '" + shown + "': an S3 URI takes no '?' or '#' part");
        }
        String bucket = uri.getRawAuthority();
        if (!BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("bad S3 URI '" + shown + "': '" + bucket + "' is not a bucket name"
                    + " (3 to 255 letters, digits, '.', '-', '_'; no port)");
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String prefix = path.startsWith("/") ? path.substring(1) : path;
        if (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (!prefix.isEmpty()) {
            checkPath(prefix, "bad S3 URI '" + shown + "': the prefix must be names separated by single '/',"
                    + " without '.' or '..'");
        }
        return new S3Location(bucket, prefix);
    }

    /** {@code s3://bucket/prefix}, without a trailing slash; {@code s3://bucket} for the whole bucket. */
    public URI uri() {
        try {
            return new URI("s3", bucket, prefix.isEmpty() ? null : "/" + prefix, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot build the URI of " + bucket + "/" + prefix, e);
        }
    }

    /** The object key of a volume path ({@code ""} is the root, whose key is the prefix). */
    String key(String path) throws FsException {
        checkVolumePath(path);
        if (prefix.isEmpty()) {
            return path;
        }
        return path.isEmpty() ? prefix : prefix + "/" + path;
    }

    /** The key prefix of a directory's children, ending in '/' (or "" for the root of a whole bucket). */
    String childPrefix(String dir) throws FsException {
        String key = key(dir);
        return key.isEmpty() ? "" : key + "/";
    }

    /** The volume path of a key under the root prefix (the inverse of {@link #key}). */
    String path(String key) {
        if (prefix.isEmpty()) {
            return key;
        }
        if (key.length() <= prefix.length() + 1 || !key.startsWith(prefix + "/")) {
            throw new IllegalArgumentException("key '" + key + "' is not under " + prefix + "/");
        }
        return key.substring(prefix.length() + 1);
    }

    /**
     * Checks a volume path as the local storage does: names separated by '/', relative to the root,
     * without '.', '..' or empty names; and the key it makes must fit S3's 1024 bytes.
     */
    private void checkVolumePath(String path) throws FsException {
        requireNonNull(path, "path is null");
        if (!path.isEmpty()) {
            checkPath(path, "bad under storage path '" + path
                    + "': expected names separated by '/', relative to the root, without '.' or '..'");
        }
        int bytes = path.getBytes(StandardCharsets.UTF_8).length + prefix.length() + 2;
        if (bytes > MAX_KEY_BYTES) {
            throw new FsException(FsError.ENAMETOOLONG, "'" + path + "': S3 keys hold at most " + MAX_KEY_BYTES
                    + " bytes");
        }
    }

    private static void checkPath(String path, String message) {
        int start = 0;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            int length = end - start;
            if (length == 0 || (length == 1 && path.charAt(start) == '.')
                    || (length == 2 && path.startsWith("..", start))) {
                throw new IllegalArgumentException(message);
            }
            start = end + 1;
        }
    }

    /** Whether a listed name can be a volume entry: not empty, '.', '..', and without NUL. */
    static boolean isEntryName(String name) {
        return !name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('\0') < 0;
    }

    @Override
    public String toString() {
        return uri().toString();
    }
}
