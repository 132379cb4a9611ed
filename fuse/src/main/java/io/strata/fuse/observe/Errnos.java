package io.strata.fuse.observe;

import io.strata.core.fs.FsError;

/** Errno values as the names users know them by ({@code ENOENT}), for meters and log lines. */
final class Errnos {
    private static final String[] NAMES = new String[256];

    static {
        for (FsError error : FsError.values()) {
            NAMES[error.errno()] = error.name();
        }
        NAMES[4] = "EINTR";
        NAMES[12] = "ENOMEM";
        NAMES[25] = "ENOTTY";
    }

    private Errnos() {}

    /** {@code OK} for 0, the name of a known errno, else {@code errno N}. */
    static String name(int errno) {
        if (errno == 0) {
            return "OK";
        }
        return errno > 0 && errno < NAMES.length && NAMES[errno] != null ? NAMES[errno] : "errno " + errno;
    }
}
