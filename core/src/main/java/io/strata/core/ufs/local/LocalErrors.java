package io.strata.core.ufs.local;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Map;

/**
 * Turns java.nio failures into {@link FsException}s carrying the POSIX error they stand for.
 *
 * <p>java.nio has a class for only a few errnos; the rest arrive as a plain {@link
 * FileSystemException} whose reason is the C library's message. Those are matched against the
 * English glibc texts: under another message locale they stay plain IOExceptions (an EIO
 * upstream), which is the safe side.
 */
final class LocalErrors {
    private static final Map<String, FsError> BY_REASON = Map.of(
            "Not a directory", FsError.ENOTDIR,
            "Is a directory", FsError.EISDIR,
            "Directory not empty", FsError.ENOTEMPTY,
            "No space left on device", FsError.ENOSPC,
            "Disk quota exceeded", FsError.ENOSPC,
            "Read-only file system", FsError.EROFS,
            "Invalid cross-device link", FsError.EXDEV,
            "File name too long", FsError.ENAMETOOLONG,
            "Invalid argument", FsError.EINVAL,
            "Operation not permitted", FsError.EPERM);

    private LocalErrors() {}

    /** {@code e} as an {@link FsException} naming the operation and volume path, or {@code e} itself. */
    static IOException translate(IOException e, String operation, String path) {
        return translate(e, operation + " '" + path + "'");
    }

    /** {@code e} as an {@link FsException} with {@code what} as its message, or {@code e} itself. */
    static IOException translate(IOException e, String what) {
        if (e instanceof FsException) {
            return e;
        }
        FsError error = errorOf(e);
        return error == null ? e : new FsException(error, what, e);
    }

    /** The POSIX error behind {@code e}, or null if it is not one we can name. */
    static FsError errorOf(IOException e) {
        if (e instanceof FsException fs) {
            return fs.error();
        }
        if (e instanceof NoSuchFileException) {
            return FsError.ENOENT;
        }
        if (e instanceof FileAlreadyExistsException) {
            return FsError.EEXIST;
        }
        if (e instanceof DirectoryNotEmptyException) {
            return FsError.ENOTEMPTY;
        }
        if (e instanceof AccessDeniedException) {
            return FsError.EACCES;
        }
        if (e instanceof NotDirectoryException) {
            return FsError.ENOTDIR;
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return BY_REASON.get(fs.getReason());
        }
        return null;
    }
}
