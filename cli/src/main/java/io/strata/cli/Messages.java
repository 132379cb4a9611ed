package io.strata.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Exceptions as a few words for a one-line message: NIO's messages are often a bare path. */
public final class Messages {
    private Messages() {}

    public static String describe(Throwable e) {
        if (e instanceof FileSystemException fs && fs.getReason() == null) {
            String file = fs.getFile();
            if (e instanceof NoSuchFileException) {
                return "no such file or directory: " + file;
            }
            if (e instanceof AccessDeniedException) {
                return "permission denied: " + file;
            }
            if (e instanceof NotDirectoryException) {
                return "not a directory: " + file;
            }
            if (e instanceof FileAlreadyExistsException) {
                return "already exists: " + file;
            }
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
