package io.strata.meta;

/** How {@code setxattr} treats an existing attribute ({@code XATTR_CREATE}, {@code XATTR_REPLACE}). */
public enum XattrMode {
    /** Create or replace. */
    UPSERT,
    /** Fail with EEXIST if it exists. */
    CREATE,
    /** Fail with ENODATA if it does not exist. */
    REPLACE;

    public static XattrMode fromFlags(int flags) {
        return switch (flags & 3) {
            case 1 -> CREATE;
            case 2 -> REPLACE;
            default -> UPSERT;
        };
    }
}
