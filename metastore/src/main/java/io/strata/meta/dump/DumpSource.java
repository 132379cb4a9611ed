package io.strata.meta.dump;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What an engine gives a dump: batch reads of its namespace, over one consistent view where the
 * engine has one ({@link #consistency()} says which). Obtained from
 * {@link io.strata.meta.MetaStore#dumpSource()} and closed by the dump.
 *
 * <p>{@link #page} is called from several threads at once, up to {@link #parallelism()} of them:
 * each call is one batch (a multi-row query, a pipeline, a script), and the dump keeps several in
 * flight while it writes the ones before. Everything else is called from the dump's thread.
 */
public interface DumpSource extends AutoCloseable {
    /**
     * What the dump is guaranteed to be, for the user, e.g. "a consistent snapshot (one read-only
     * transaction)".
     */
    String consistency();

    /** How many {@link #page} calls can usefully run at once (1 for an in-process engine). */
    int parallelism();

    /** Every volume setting, the format version included. */
    Map<String, String> settings() throws IOException;

    DumpCounters counters() throws IOException;

    /** The root directory. */
    DumpedInode root() throws IOException;

    /**
     * Up to {@code limit} entries of directory {@code dir} after the name {@code after} (null:
     * from the first), in {@link io.strata.meta.Names#ORDER}, each with its inode. Fewer than
     * {@code limit} means the directory has no more. A directory that vanished has no entries.
     */
    List<DumpEntry> page(long dir, String after, int limit) throws IOException;

    @Override
    void close() throws IOException;
}
