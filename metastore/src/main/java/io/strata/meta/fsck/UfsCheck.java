package io.strata.meta.fsck;

import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Inode;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Compares a file's inode with what the under storage holds at its primary link: a file is there,
 * of the recorded size and, where the inode records one, of the recorded version (ETag, or size
 * and mtime). Neither kind of difference is repaired: which side is right is for the user to say.
 */
final class UfsCheck {
    private final UnderFileSystem ufs;
    private long checked;

    UfsCheck(UnderFileSystem ufs) {
        this.ufs = requireNonNull(ufs, "ufs is null");
    }

    /** Files compared so far. */
    long checked() {
        return checked;
    }

    /** The problem with the file whose primary link is {@code path} (absolute in the volume), if any. */
    Optional<Finding> check(Inode inode, String path) throws IOException {
        checked++;
        String ufsPath = path.substring(1); // the under storage's paths are relative to its root
        Optional<UfsStatus> found = ufs.status(ufsPath);
        if (found.isEmpty() || found.get().directory()) {
            return Optional.of(Finding.unrepairable(ProblemKind.UFS_MISSING, inode.ino(), path,
                    "no file at '" + ufsPath + "' in " + ufs.uri() + (found.isPresent() ? " (a directory is there)" : "")
                            + ": restore it there, or remove the name from the volume"));
        }
        UfsStatus status = found.get();
        if (status.size() != inode.size()) {
            return Optional.of(Finding.unrepairable(ProblemKind.UFS_MISMATCH, inode.ino(), path,
                    "the inode records " + inode.size() + " bytes, the under storage holds " + status.size()
                            + ": it was changed outside Strata, or an upload was lost; copy the right content"
                            + " in through a mount"));
        }
        if (inode.ufsVersion() != null && !Objects.equals(inode.ufsVersion(), status.version())) {
            return Optional.of(Finding.unrepairable(ProblemKind.UFS_MISMATCH, inode.ino(), path,
                    "the inode records version " + inode.ufsVersion() + ", the under storage holds "
                            + status.version() + ": it was changed outside Strata; a mount picks up the new"
                            + " version when it opens the file"));
        }
        return Optional.empty();
    }
}
