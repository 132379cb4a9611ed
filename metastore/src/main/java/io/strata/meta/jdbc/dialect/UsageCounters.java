package io.strata.meta.jdbc.dialect;

import java.sql.SQLException;
import java.util.List;

/**
 * Where a volume keeps its usage (how many inodes, how many bytes its files hold), which every
 * create and delete changes: {@link NamedCounters}, rows by name, where there is one writer at a
 * time (SQLite); {@link ShardedCounters}, rows chosen at random, where there are many.
 */
public interface UsageCounters {
    /** The DDL of the counters table. */
    List<String> ddl();

    /** Writes the usage of a new volume: the root inode, no bytes. */
    void format(Session session) throws SQLException;

    /** Adds the deltas a write transaction collected, as its last statement (the last lock it takes). */
    void add(Session session, long inodes, long usedBytes) throws SQLException;

    /** {inodes, used bytes}, in one statement. */
    long[] read(Session session) throws SQLException;

    /** Sets the usage to these totals (fsck, load). */
    void set(Session session, long inodes, long usedBytes) throws SQLException;
}
