package io.strata.meta;

import static java.util.Objects.requireNonNull;

/**
 * What removing one name did to its inode, so the caller can bring the under storage along.
 *
 * @param inode the inode after the removal; {@code nlink() == 0} means it is gone
 * @param wasPrimary whether the removed name was the inode's primary link (its data lived there)
 */
public record RemovedLink(Inode inode, boolean wasPrimary) {
    public RemovedLink {
        requireNonNull(inode, "inode is null");
    }

    public boolean deleted() {
        return inode.nlink() == 0;
    }

    /** The data must move from the removed name to the inode's new primary link. */
    public boolean dataMustMove() {
        return wasPrimary && !deleted() && inode.type().inUnderStorage();
    }
}
