package io.strata.core.fs;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * A file system operation failed with a specific POSIX error.
 *
 * <p>Only EIO, a fault, carries a stack trace. The other errors are answers (a name that does not
 * exist, an attribute a file does not have) that a frontend sends back by the thousand, as
 * {@code ls -l} does for every file: capturing a stack for each cost more than the answer.
 */
public class FsException extends IOException {
    private static final long serialVersionUID = 1L;

    private final FsError error;

    public FsException(FsError error, String message) {
        super(error + ": " + message);
        this.error = requireNonNull(error, "error is null");
        captureStackIfFault();
    }

    public FsException(FsError error, String message, Throwable cause) {
        super(error + ": " + message, cause);
        this.error = requireNonNull(error, "error is null");
        captureStackIfFault();
    }

    private void captureStackIfFault() {
        if (error == FsError.EIO) {
            super.fillInStackTrace();
        }
    }

    /** Called by Throwable's constructor, before the error is known: the stack is taken after. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return error == FsError.EIO ? super.fillInStackTrace() : this;
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
