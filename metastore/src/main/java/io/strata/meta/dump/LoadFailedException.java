package io.strata.meta.dump;

import java.io.IOException;

/**
 * A load that failed part way. The message says why and in what state the volume was left:
 * empty, or (when emptying it failed too) partly loaded.
 */
public final class LoadFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final boolean leftEmpty;

    LoadFailedException(String message, Throwable cause, boolean leftEmpty) {
        super(message, cause);
        this.leftEmpty = leftEmpty;
    }

    /** Whether the volume was emptied after the failure. */
    public boolean leftEmpty() {
        return leftEmpty;
    }

    /** Whether the dump was at fault (malformed, truncated) rather than the engine. */
    public boolean badDump() {
        return getCause() instanceof MalformedDumpException;
    }
}
