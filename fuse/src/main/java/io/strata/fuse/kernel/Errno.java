package io.strata.fuse.kernel;

/** The errno values the transport itself answers or meets; the file system's own come from FsError. */
final class Errno {
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;

    private Errno() {}
}
