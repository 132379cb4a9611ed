package io.strata.meta;

/**
 * A change to an inode's attributes: each field is applied only when non-null.
 *
 * <p>{@code ctimeNs} is always applied: every attribute change is a status change.
 */
public record SetAttr(Integer mode, Integer uid, Integer gid, Long size, Long atimeNs, Long mtimeNs, long ctimeNs,
                      String ufsVersion) {
    public static SetAttr mode(int mode, long nowNs) {
        return new SetAttr(mode, null, null, null, null, null, nowNs, null);
    }

    public static SetAttr owner(Integer uid, Integer gid, long nowNs) {
        return new SetAttr(null, uid, gid, null, null, null, nowNs, null);
    }

    public static SetAttr times(Long atimeNs, Long mtimeNs, long nowNs) {
        return new SetAttr(null, null, null, null, atimeNs, mtimeNs, nowNs, null);
    }

    /** The new length and content version after data changed; mtime moves with it. */
    public static SetAttr content(long size, long mtimeNs, String ufsVersion) {
        return new SetAttr(null, null, null, size, null, mtimeNs, mtimeNs, ufsVersion);
    }
}
