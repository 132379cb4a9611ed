package io.strata.meta.dump;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an engine gives a load: raw writes of inodes with their dumped numbers, entries and xattrs,
 * in batches, then the counters and settings. Obtained from
 * {@link io.strata.meta.MetaStore#loadTarget()} and closed by the load.
 *
 * <p>The order of calls: {@link #nonEmpty()}, {@link #clear()} (only to empty a volume, with
 * {@code --force}), {@link #begin()}, any number of {@link #write} calls (from up to
 * {@link #parallelism()} threads at once, in any order: a batch may hold an entry whose parent's
 * inode comes in a later batch), then {@link #finish} — or, after a failure anywhere,
 * {@link #abort()}, which must leave the volume empty.
 */
public interface LoadTarget extends AutoCloseable {
    /**
     * The setting an engine that cannot load in one transaction writes in {@link #begin()} and
     * removes in {@link #finish}: a volume that has it was not loaded completely.
     */
    String LOADING_SETTING = "load_incomplete";

    /** Where the volume is, for messages (never with a password). */
    String describe();

    /** How many {@link #write} calls can usefully run at once (1 for an in-process engine). */
    int parallelism();

    /**
     * Why the volume is not empty ("it has 3 inodes", "a load into it did not finish"), or empty
     * if it is: only the root, with no entries and no xattrs. Settings do not count.
     */
    Optional<String> nonEmpty() throws IOException;

    /** Makes the volume empty: a fresh root, counters of an empty volume, only the format version setting. */
    void clear() throws IOException;

    /**
     * Starts the load: an engine that cannot load in one transaction marks the volume as being
     * loaded, so that a load cut short shows in {@link #nonEmpty()}.
     */
    void begin() throws IOException;

    /** Writes one batch; thread-safe. */
    void write(LoadBatch batch) throws IOException;

    /**
     * Completes the load after every batch is written: the root's attributes, the fixes to
     * nlink and primary links found at the end, the counters and the settings; then the volume
     * is usable, and no longer marked as being loaded.
     */
    void finish(Summary summary) throws IOException;

    /** Undoes a failed load: leaves the volume empty, as {@link #clear()} does. */
    void abort() throws IOException;

    @Override
    void close() throws IOException;

    /**
     * What a load learned only at its end.
     *
     * @param root the root's attributes and xattrs (the root exists in every volume: it is
     *     replaced, not created; its xattrs are the only ones the volume has for it)
     * @param fixes inodes whose nlink or primary link differ from what their batch wrote
     * @param settings every setting of the dump (without format_version)
     */
    record Summary(DumpedInode root, List<LinkFix> fixes, DumpCounters counters, Map<String, String> settings) {
        public Summary {
            fixes = List.copyOf(fixes);
            settings = Map.copyOf(settings);
        }
    }

    /**
     * The final nlink and primary link of an inode whose batch wrote other values: a directory
     * with a different number of subdirectories than its dumped nlink said, and every inode with
     * more than one name or whose dumped nlink said so (an engine that indexes the names of
     * hard-linked inodes, as Redis's l&lt;ino&gt;, rebuilds them from these).
     *
     * @param name the primary link's name, or null to keep the primary link the batch wrote
     */
    record LinkFix(long ino, int nlink, long parent, String name) {
        /** Whether the fix moves the primary link; if not, the one the batch wrote stays. */
        public boolean movesPrimary() {
            return name != null;
        }
    }
}
