package io.strata.meta.dump;

import java.io.IOException;

/**
 * A dump that cannot be loaded: truncated, not JSON, or JSON that is not a dump. The message
 * says at which byte of the JSON text (for a .gz file: of the uncompressed text) and what was
 * expected there.
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
