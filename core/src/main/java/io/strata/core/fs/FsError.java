package io.strata.core.fs;

/**
 * The POSIX error a file system operation ends with, with its Linux errno value.
 *
 * <p>Every layer below the FUSE adapter speaks in these, so that a user mistake (a missing name,
 * a non-empty directory) reaches the application as its own errno and never as a blanket EIO.
 */
public enum FsError {
    EPERM(1),
    ENOENT(2),
    EIO(5),
    ENXIO(6),
    EBADF(9),
    EAGAIN(11),
    EACCES(13),
    EBUSY(16),
    EEXIST(17),
    EXDEV(18),
    ENOTDIR(20),
    EISDIR(21),
    EINVAL(22),
    ETXTBSY(26),
    EFBIG(27),
    ENOSPC(28),
    EROFS(30),
    EMLINK(31),
    ERANGE(34),
    ENAMETOOLONG(36),
    ENOSYS(38),
    ENOTEMPTY(39),
    ELOOP(40),
    ENODATA(61),
    ESTALE(116),
    ENOTSUP(95);

    private final int errno;

    FsError(int errno) {
        this.errno = errno;
    }

    /** The Linux errno value, positive. */
    public int errno() {
        return errno;
    }
}
