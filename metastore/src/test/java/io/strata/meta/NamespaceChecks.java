package io.strata.meta;

import java.io.IOException;

/** {@link NamespaceInvariants} for tests in other packages (dump/load checks the volumes it loads). */
public final class NamespaceChecks {
    private NamespaceChecks() {}

    /** Fails unless every invariant of a consistent namespace holds (nlink, primary links, counters...). */
    public static void check(MetaStore store) throws IOException {
        NamespaceInvariants.check(store);
    }
}
