package io.strata.meta.fsck;

import static java.util.Objects.requireNonNull;

/**
 * One broken invariant that fsck found.
 *
 * @param ino the inode it concerns (for an entry without an inode: the number the entry names;
 *     0 for a volume counter)
 * @param path where it is, as a path from the volume root when a name leads there, else a
 *     description such as {@code "(unreachable, primary link: 12/a.txt)"}
 * @param detail what is wrong, with the values found
 * @param repair what {@code --repair} does about it, or null when fsck cannot repair it safely
 *     (then it says what to do in {@code detail})
 * @param repaired whether this run repaired it
 */
public record Problem(ProblemKind kind, long ino, String path, String detail, String repair, boolean repaired) {
    public Problem {
        requireNonNull(kind, "kind is null");
        requireNonNull(path, "path is null");
        requireNonNull(detail, "detail is null");
        if (repaired && repair == null) {
            throw new IllegalArgumentException("a problem without a repair cannot be repaired: " + detail);
        }
    }

    public boolean repairable() {
        return repair != null;
    }

    Problem markRepaired() {
        return new Problem(kind, ino, path, detail, repair, true);
    }
}
