package io.strata.meta.fsck;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * A problem with the change that repairs it (null when fsck cannot repair it safely).
 *
 * @param order when the repair runs among the others: entries go before the inodes they named,
 *     inodes before the links that counted them
 */
record Finding(Problem problem, Repair repair, int order) {
    Finding {
        requireNonNull(problem, "problem is null");
        if ((repair == null) == problem.repairable()) {
            throw new IllegalArgumentException("a finding has a repair exactly when its problem says one: "
                    + problem.detail());
        }
    }

    static Finding unrepairable(ProblemKind kind, long ino, String path, String detail) {
        return new Finding(new Problem(kind, ino, path, detail, null, false), null, Integer.MAX_VALUE);
    }

    static Finding repairable(ProblemKind kind, long ino, String path, String detail, String howRepaired,
                              int order, Repair repair) {
        return new Finding(new Problem(kind, ino, path, detail, howRepaired, false), repair, order);
    }

    /** One change to the engine. */
    @FunctionalInterface
    interface Repair {
        void apply(FsckTarget target) throws IOException;
    }
}
