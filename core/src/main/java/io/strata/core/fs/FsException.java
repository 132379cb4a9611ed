package io.strata.core.fs;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/** A file system operation failed with a specific POSIX error. */
public class FsException extends IOException {
    private static final long serialVersionUID = 1L;

    private final FsError error;

    public FsException(FsError error, String message) {
        super(error + ": " + message);
        this.error = requireNonNull(error, "error is null");
    }

    public FsException(FsError error, String message, Throwable cause) {
        super(error + ": " + message, cause);
        this.error = requireNonNull(error, "error is null");
    }

    public FsError error() {
        return error;
    }

    public static FsException notFound(String what) {
        return new FsException(FsError.ENOENT, what);
    }

    public static FsException exists(String what) {
        return new FsException(FsError.EEXIST, what);
    }
}
