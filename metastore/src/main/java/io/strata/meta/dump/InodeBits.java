package io.strata.meta.dump;

import java.util.HashMap;
import java.util.Map;

/**
 * One bit per inode number, in pages of {@value #PAGE_BITS} numbers allocated as they are
 * touched: 125 KB per million inodes, the only part of a load that grows with the volume (and the
 * set of inodes an fsck reached).
 */
public final class InodeBits {
    private static final int PAGE_SHIFT = 16;
    private static final int PAGE_BITS = 1 << PAGE_SHIFT;

    private final Map<Long, long[]> pages = new HashMap<>();
    private long lastPageNumber = -1;
    private long[] lastPage;

    public boolean get(long ino) {
        long[] page = page(ino, false);
        return page != null && (page[index(ino)] & bit(ino)) != 0;
    }

    public void set(long ino) {
        long[] page = page(ino, true);
        page[index(ino)] |= bit(ino);
    }

    private long[] page(long ino, boolean create) {
        long number = ino >>> PAGE_SHIFT;
        if (number == lastPageNumber) {
            return lastPage;
        }
        long[] page = pages.get(number);
        if (page == null) {
            if (!create) {
                return null;
            }
            page = new long[PAGE_BITS / 64];
            pages.put(number, page);
        }
        lastPageNumber = number;
        lastPage = page;
        return page;
    }

    private static int index(long ino) {
        return (int) (ino & (PAGE_BITS - 1)) >>> 6;
    }

    private static long bit(long ino) {
        return 1L << (ino & 63);
    }
}
