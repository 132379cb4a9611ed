package io.strata.fuse.kernel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * How many times the kernel was handed each node id (LOOKUP, CREATE, MKDIR, ... and READDIRPLUS
 * entries) minus what it forgot (FORGET, BATCH_FORGET). Node ids are the metastore's inode numbers,
 * so nothing has to be kept alive for the kernel's sake; the counts say which inodes the kernel
 * knows, which is what invalidations are sent for.
 */
final class LookupCounts {
    /** FUSE_ROOT_ID, which is also Strata's root inode number. */
    static final long ROOT = 1;

    private final ConcurrentMap<Long, Long> counts = new ConcurrentHashMap<>();

    void looked(long nodeId) {
        counts.merge(nodeId, 1L, Long::sum);
    }

    /** Returns whether the kernel now holds the node no more. */
    boolean forget(long nodeId, long n) {
        return counts.computeIfPresent(nodeId, (id, count) -> count - n <= 0 ? null : count - n) == null;
    }

    /** Whether the kernel holds the node: the root always (it is never looked up), others while counted. */
    boolean known(long nodeId) {
        return nodeId == ROOT || counts.containsKey(nodeId);
    }

    long count(long nodeId) {
        return counts.getOrDefault(nodeId, 0L);
    }

    int size() {
        return counts.size();
    }

    /** Forgets every node: for counts taken before the kernel could hold any (a {@link Rehearsal}'s). */
    void clear() {
        counts.clear();
    }
}
