package io.strata.meta.dump;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * Tells the user how far a dump or load is: {@link #advance} once per entry from the one thread
 * that writes or reads the dump, {@link #warn} for what the user should know about the data.
 * {@link #bar} draws a progress bar for a terminal, {@link #lines} prints a line now and then for
 * logs and pipes.
 */
public interface Progress {
    /**
     * A dump or load of about {@code expectedEntries} entries starts ({@code -1}: not known; a load
     * knows the count once the dump's counters are read, and says so with another call).
     */
    void start(String what, long expectedEntries);

    /** {@code entries} more entries are done. Cheap: called once per entry. */
    void advance(long entries);

    /** A message for the user about the data, e.g. a dumped nlink that disagrees. */
    void warn(String message);

    /** Done: the last state, and a line break where a bar was drawn. */
    void finish();

    /** The run failed: the bar is cleared, so the error that follows has a line of its own. */
    void fail();

    /** No output at all. */
    static Progress none() {
        return new Progress() {
            @Override
            public void start(String what, long expectedEntries) {}

            @Override
            public void advance(long entries) {}

            @Override
            public void warn(String message) {}

            @Override
            public void finish() {}

            @Override
            public void fail() {}
        };
    }

    /** A bar redrawn in place on {@code out} (a terminal), a few times a second. */
    static Progress bar(PrintWriter out, LongSupplier nanoClock) {
        return new ProgressReport(out, nanoClock, true, 200_000_000L);
    }

    /** A plain line on {@code out} every {@code intervalNs}, and one at the end. */
    static Progress lines(PrintWriter out, LongSupplier nanoClock, long intervalNs) {
        return new ProgressReport(out, nanoClock, false, intervalNs);
    }
}
