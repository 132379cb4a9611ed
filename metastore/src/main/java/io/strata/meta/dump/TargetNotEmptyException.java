package io.strata.meta.dump;

import java.io.IOException;

/** A load into a volume that is not empty, without force: nothing was changed. */
public final class TargetNotEmptyException extends IOException {
    private static final long serialVersionUID = 1L;

    TargetNotEmptyException(String message) {
        super(message);
    }
}
