package io.strata.fuse.kernel;

/** The errno values /dev/fuse itself answers the transport with; what the transport answers comes from FsError. */
final class Errno {
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENODEV = 19;

    private Errno() {}
}
