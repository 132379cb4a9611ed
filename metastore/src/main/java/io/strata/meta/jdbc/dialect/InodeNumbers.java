package io.strata.meta.jdbc.dialect;

import java.sql.SQLException;
import java.util.List;

/**
 * Where new inode numbers come from: {@link CounterNumbers}, a counter row advanced inside the
 * write transaction (SQLite, one writer); {@link SequenceNumbers}, a sequence outside every
 * transaction (PostgreSQL); {@link BatchedNumbers}, a counter row advanced in batches outside the
 * transactions that use them (MariaDB, MySQL). Numbers are never reused; the last two leave gaps.
 */
public interface InodeNumbers {
    /** The DDL of what keeps the numbers. */
    List<String> ddl();

    /** Sets up a new volume, whose first new inode is {@code first}. */
    void format(Session session, long first) throws SQLException;

    /**
     * {@code count} new numbers, inside the caller's write transaction.
     *
     * @throws Exhausted if numbers must be fetched outside any transaction first ({@link #refill})
     */
    long[] take(Session session, int count) throws SQLException;

    /**
     * An SQL expression that gives a new number inside an INSERT, or null. A dialect that has one
     * runs on PostgreSQL: the engine uses it in a data-modifying WITH, one statement for a new
     * inode and its entry.
     */
    default String inInsert() {
        return null;
    }

    /** At least one more than any number handed out so far, as the session's snapshot sees it (dumps). */
    long next(Session session) throws SQLException;

    /** Makes {@code next} the next number (loads, and emptying a volume). */
    void reset(Session session, long next) throws SQLException;

    /**
     * Fetches at least {@code count} numbers on a session in auto-commit mode, after {@link #take}
     * threw {@link Exhausted}; the transaction then runs again.
     */
    default void refill(Session session, int count) throws SQLException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " takes its numbers in the transaction");
    }

    /** Thrown by {@link #take} when the numbers at hand are too few; see {@link #refill}. */
    final class Exhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int count;

        Exhausted(int count) {
            super("inode numbers exhausted", null, false, false);
            this.count = count;
        }

        /** How many numbers the transaction needs. */
        public int count() {
            return count;
        }
    }
}
