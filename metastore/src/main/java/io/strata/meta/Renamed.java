package io.strata.meta;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of a rename.
 *
 * @param moved the moved inode after the rename
 * @param wasPrimary whether the moved name was the moved inode's primary link (its data must move)
 * @param replaced what happened to the inode the target name referred to before, if any
 */
public record Renamed(Inode moved, boolean wasPrimary, Optional<RemovedLink> replaced) {
    public Renamed {
        requireNonNull(moved, "moved is null");
        requireNonNull(replaced, "replaced is null");
    }
}
