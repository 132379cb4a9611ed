package io.strata.core.cache;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where missing pages come from: positional reads of one version of a file (a {@code UfsFile}). */
@FunctionalInterface
public interface PageSource {
    /** Reads into {@code dst} from {@code offset}; returns bytes read, or -1 at end of file. */
    int read(ByteBuffer dst, long offset) throws IOException;
}
