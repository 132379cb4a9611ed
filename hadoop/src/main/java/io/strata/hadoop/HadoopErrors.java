package io.strata.hadoop;

import io.strata.core.fs.FsException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.security.AccessControlException;

import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * The exceptions Hadoop's callers test for, in place of the client's errno-carrying
 * {@link FsException}: a missing path is a {@link FileNotFoundException}, an existing one a
 * {@link FileAlreadyExistsException}, and so on. The cause is kept.
 */
final class HadoopErrors {
    private HadoopErrors() {}

    static IOException translate(IOException e, String path) {
        if (!(e instanceof FsException fs)) {
            return e;
        }
        IOException translated = switch (fs.error()) {
            case ENOENT -> new FileNotFoundException(path + ": " + e.getMessage());
            case EEXIST -> new FileAlreadyExistsException(path + ": " + e.getMessage());
            case ENOTDIR -> new ParentNotDirectoryException(path + ": " + e.getMessage());
            case ENOTEMPTY -> new PathIsNotEmptyDirectoryException(path);
            case EISDIR -> new PathIsDirectoryException(path);
            case EACCES, EPERM, EROFS -> new AccessControlException(path + ": " + e.getMessage());
            default -> null;
        };
        if (translated == null) {
            return e;
        }
        translated.initCause(e);
        return translated;
    }
}
