package io.strata.core.ufs.s3;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import software.amazon.awssdk.services.s3.model.S3Object;

import java.time.Duration;
import java.util.List;

/**
 * The directory prefixes this client knows to hold their marker object (the empty key
 * {@code dir/}): it wrote the marker, or a listing of the prefix showed it. While a directory
 * has its marker, removing the last key under it cannot make it vanish from S3, so the check
 * after each delete ({@link S3UnderFileSystem}'s keepParent: one LIST per unlink) can be left out,
 * and a mkdir in it need not ask whether it is a directory (a HEAD and a LIST).
 *
 * <p>Knowledge, not a promise: another client or tool may delete a marker behind this one. Each
 * entry is trusted for {@link #TRUSTED} only, so at worst a directory emptied within that window
 * of such a deletion loses its place in S3 (the namespace keeps it; a mkdir inside it through S3
 * then fails with ENOENT), as it would without the check.
 */
final class DirectoryMarkers {
    private static final Duration TRUSTED = Duration.ofMinutes(1);
    private static final int MAX_DIRECTORIES = 4096;

    private final Cache<String, Boolean> marked = Caffeine.newBuilder()
            .maximumSize(MAX_DIRECTORIES)
            .expireAfterWrite(TRUSTED)
            .build();

    /** {@code prefix} (a directory's key prefix, ending in '/') has its marker now. */
    void marked(String prefix) {
        marked.put(prefix, Boolean.TRUE);
    }

    /**
     * Notes {@code prefix}'s marker if {@code keys}, a listing under it in key order, shows it: the
     * marker is the first key under its own prefix.
     */
    void sawListing(String prefix, List<S3Object> keys) {
        if (!keys.isEmpty() && keys.get(0).key().equals(prefix)) {
            marked(prefix);
        }
    }

    boolean isMarked(String prefix) {
        return marked.getIfPresent(prefix) != null;
    }

    /** The marker of {@code prefix} and those of any directories under it are gone or moved. */
    void removedUnder(String prefix) {
        marked.asMap().keySet().removeIf(key -> key.startsWith(prefix));
    }
}
