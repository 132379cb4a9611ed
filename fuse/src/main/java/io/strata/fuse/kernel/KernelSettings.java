package io.strata.fuse.kernel;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * What the kernel transport needs from the mount's options, resolved by the caller: cache
 * timeouts, open flags, request sizes, access and the worker pool.
 *
 * @param fsName shown as the mount's source in mountinfo and df
 * @param keepCache FOPEN_KEEP_CACHE on every open (kernel_cache, auto_cache)
 * @param autoInvalData the kernel drops a file's cached pages when it sees its size or mtime change (auto_cache)
 * @param threads workers reading requests
 * @param cloneFd whether each worker reads its own cloned descriptor of the connection
 * @param spliceReads whether reads of cached pages are spliced from their page files ({@link SplicePipe})
 * @param xattrs whether xattr requests are served (else ENOSYS, and the kernel stops sending them)
 * @param rehearsalRounds rounds of the {@link Rehearsal} before INIT is answered; 0 for none
 */
public record KernelSettings(String fsName, Duration entryTimeout, Duration attrTimeout, Duration negativeTimeout,
                             boolean keepCache, boolean autoInvalData, boolean directIo, boolean writebackCache,
                             boolean allowOther, boolean readOnly, int maxRead, int maxWrite, Integer uid,
                             Integer gid, Integer umask, int threads, boolean cloneFd, boolean spliceReads,
                             boolean xattrs, int rehearsalRounds) {
    public KernelSettings {
        requireNonNull(fsName, "fsName is null");
        requireNonNull(entryTimeout, "entryTimeout is null");
        requireNonNull(attrTimeout, "attrTimeout is null");
        requireNonNull(negativeTimeout, "negativeTimeout is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        if (rehearsalRounds < 0) {
            throw new IllegalArgumentException("rehearsal rounds must not be negative: " + rehearsalRounds);
        }
    }
}
