package io.strata.fuse;

import java.io.IOException;

/** A mount could not be made; the message is one line for the user saying what to do. */
public class MountException extends IOException {
    private static final long serialVersionUID = 1L;

    public MountException(String message) {
        super(message);
    }

    public MountException(String message, Throwable cause) {
        super(message, cause);
    }
}
