package io.strata.meta.fsck;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What one fsck found and did.
 *
 * @param consistency what the view checked was, in the engine's words (a snapshot, or per page)
 * @param inodes inodes reached from the root, the root included
 * @param entries names seen (a hard link counts at each name)
 * @param orphans inodes no name leads to
 * @param ufsFiles files compared with the under storage; -1 when it was not checked
 * @param problems every problem, in the order found, each marked whether this run repaired it
 */
public record FsckReport(String consistency, long inodes, long entries, long orphans, long ufsFiles,
                         List<Problem> problems) {
    public FsckReport {
        requireNonNull(consistency, "consistency is null");
        problems = List.copyOf(requireNonNull(problems, "problems is null"));
    }

    /** This report with {@code more} problems after its own, found by a check outside {@link Fsck}. */
    public FsckReport with(List<Problem> more) {
        List<Problem> all = new ArrayList<>(problems);
        all.addAll(more);
        return new FsckReport(consistency, inodes, entries, orphans, ufsFiles, all);
    }

    /** Problems this run left as they were: unrepairable ones, or all of them in a dry run. */
    public long remaining() {
        return problems.stream().filter(p -> !p.repaired()).count();
    }

    public long repaired() {
        return problems.size() - remaining();
    }

    /** Problems a run with repairs would fix that this one did not. */
    public long repairable() {
        return problems.stream().filter(p -> p.repairable() && !p.repaired()).count();
    }

    public boolean clean() {
        return remaining() == 0;
    }
}
