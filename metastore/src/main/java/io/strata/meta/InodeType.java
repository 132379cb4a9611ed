package io.strata.meta;

/** The kind of a file system object, with its {@code S_IFMT} bits. */
public enum InodeType {
    FILE(0100000),
    DIRECTORY(0040000),
    SYMLINK(0120000),
    FIFO(0010000),
    SOCKET(0140000),
    CHAR_DEVICE(0020000),
    BLOCK_DEVICE(0060000);

    /** Mask of the type bits in a {@code st_mode}. */
    public static final int S_IFMT = 0170000;

    private final int modeBits;

    InodeType(int modeBits) {
        this.modeBits = modeBits;
    }

    public int modeBits() {
        return modeBits;
    }

    /** The type encoded in a full {@code st_mode}; IllegalArgumentException for an unknown type. */
    public static InodeType fromMode(int mode) {
        int bits = mode & S_IFMT;
        for (InodeType type : values()) {
            if (type.modeBits == bits) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown file type in mode 0" + Integer.toOctalString(mode));
    }

    /** Whether objects of this type keep their data in the under storage (files and directories). */
    public boolean inUnderStorage() {
        return this == FILE || this == DIRECTORY;
    }
}
