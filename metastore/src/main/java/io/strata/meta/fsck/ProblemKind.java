package io.strata.meta.fsck;

/** The invariants fsck checks, one kind of problem each; the labels are what reports show. */
public enum ProblemKind {
    /** The engine's own check of its storage found damage (SQLite's integrity_check): pages or indexes. */
    STORAGE_DAMAGED("storage"),
    /** A non-directory's nlink is not its number of names; a directory's is not 2 + its subdirectories. */
    WRONG_NLINK("nlink"),
    /** An inode's primary link (where its data lives in the under storage) is not one of its names. */
    BAD_PRIMARY_LINK("primary-link"),
    /** A name whose inode does not exist. */
    DANGLING_ENTRY("dangling-entry"),
    /** An inode that no name leads to from the root (sessions hold theirs under /.strata, so those are reached). */
    ORPHAN_INODE("orphan"),
    /** A directory with more than one name, or inside itself: the namespace is no longer a tree. */
    DIRECTORY_LINKED_TWICE("directory-links"),
    /** The inode counter is not the number of inodes. */
    WRONG_INODE_COUNT("inode-count"),
    /** The used-bytes counter is not the sum of the files' sizes. */
    WRONG_USED_BYTES("used-bytes"),
    /** No object or file at a file's primary link in the under storage. */
    UFS_MISSING("ufs-missing"),
    /** The under storage holds a different size or version than the inode records. */
    UFS_MISMATCH("ufs-mismatch"),
    /**
     * Data in the under storage under {@code .strata/sessions/} that no keep-alive link names: a
     * session sweep stopped between removing a dead session's link and deleting its data.
     */
    SESSION_LEFTOVER("session-leftover");

    private final String label;

    ProblemKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
