package io.strata.meta.dump;

import io.strata.meta.InodeType;

import java.util.Arrays;
import java.util.StringJoiner;

/**
 * Entries of a dump by type (a hard link counts at each name, the root is a dir): what a binary
 * dump's trailer records, and what its reader counts to compare.
 */
final class EntryCounts {
    /** The order of the counts in a trailer: the format's type names' order. */
    static final InodeType[] ORDER = {InodeType.FILE, InodeType.DIRECTORY, InodeType.SYMLINK, InodeType.FIFO,
            InodeType.SOCKET, InodeType.CHAR_DEVICE, InodeType.BLOCK_DEVICE};

    private final long[] counts = new long[InodeType.values().length];

    void add(InodeType type) {
        counts[type.ordinal()]++;
    }

    void set(InodeType type, long count) {
        counts[type.ordinal()] = count;
    }

    long count(InodeType type) {
        return counts[type.ordinal()];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntryCounts other && Arrays.equals(counts, other.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    /** "3 file, 2 dir, 1 symlink": the types with entries, as the format names them. */
    @Override
    public String toString() {
        StringJoiner text = new StringJoiner(", ");
        for (InodeType type : ORDER) {
            if (count(type) > 0) {
                text.add(count(type) + " " + DumpFormat.typeName(type));
            }
        }
        return text.length() == 0 ? "no entries" : text.toString();
    }
}
