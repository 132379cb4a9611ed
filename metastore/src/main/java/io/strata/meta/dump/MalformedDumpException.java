package io.strata.meta.dump;

import java.io.IOException;

/**
 * A dump that cannot be loaded: truncated, not JSON (or Smile), or a document that is not a dump;
 * a binary dump whose trailer is missing or does not match. The message says at which byte of the
 * file (for a .gz file: of the uncompressed bytes) and what was expected there.
 */
public final class MalformedDumpException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long byteOffset;
    private final String problem;

    MalformedDumpException(long byteOffset, String problem) {
        this(byteOffset, problem, null);
    }

    MalformedDumpException(long byteOffset, String problem, Throwable cause) {
        super((byteOffset >= 0 ? "malformed dump at byte " + byteOffset : "malformed dump") + ": " + problem, cause);
        this.byteOffset = byteOffset;
        this.problem = problem;
    }

    /** What is wrong, without the offset. */
    String problem() {
        return problem;
    }

    /** Where in the JSON text the problem is, or -1 if not known. */
    public long byteOffset() {
        return byteOffset;
    }
}
