package io.strata.hadoop;

import io.strata.client.Caller;
import io.strata.client.StrataFileSystem;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;

import java.io.IOException;
import java.util.List;

/**
 * What Hadoop does to whole trees and POSIX does a name at a time: {@code mkdirs} (every missing
 * directory on the way) and recursive {@code delete} (depth first, a page of entries at a time).
 */
final class Trees {
    static final int PAGE = 1000;

    private final StrataFileSystem volume;

    Trees(StrataFileSystem volume) {
        this.volume = volume;
    }

    /** Makes each missing directory of {@code path}; a file on the way is an error. */
    void mkdirs(String path, int mode, Caller caller) throws IOException {
        Inode current = volume.getattr("/");
        String at = "";
        for (String name : path.split("/")) {
            if (name.isEmpty()) {
                continue;
            }
            at = at + "/" + name;
            if (!current.isDirectory()) {
                throw new ParentNotDirectoryException(at.substring(0, at.lastIndexOf('/')) + " is not a directory");
            }
            current = child(current.ino(), name, at, mode, caller);
        }
        if (!current.isDirectory()) {
            throw new FileAlreadyExistsException(path + " is a file");
        }
    }

    /**
     * The entry {@code name} of directory {@code parent}, made a directory if missing. Another
     * caller can make the name between the lookup and the mkdir, and remove it again before the
     * second lookup (its own mkdir failed in the storage and was undone): then this one tries again.
     */
    private Inode child(long parent, String name, String path, int mode, Caller caller) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return volume.lookup(parent, name);
            } catch (FsException e) {
                if (e.error() != FsError.ENOENT || attempt > MKDIR_ATTEMPTS) {
                    throw HadoopErrors.translate(e, path);
                }
            }
            try {
                return volume.mkdir(parent, name, mode, caller);
            } catch (FsException e) {
                if (e.error() != FsError.EEXIST) {
                    throw HadoopErrors.translate(e, path);
                }
                // made by another caller meanwhile: look it up again
            }
        }
    }

    /** Rounds of lookup and mkdir that {@link #child} makes before it gives up on a racing name. */
    private static final int MKDIR_ATTEMPTS = 3;

    /** Deletes the directory {@code path} (inode {@code ino}) and everything under it. */
    void delete(String path, long ino) throws IOException {
        deleteChildren(path, ino);
        try {
            volume.rmdir(path);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, path);
        }
    }

    void deleteChildren(String path, long ino) throws IOException {
        List<Dentry> page;
        do {
            // Always from the start: the entries of the previous page are gone.
            page = volume.readdir(ino, null, PAGE);
            for (Dentry entry : page) {
                String child = path.equals("/") ? "/" + entry.name() : path + "/" + entry.name();
                try {
                    if (entry.type() == InodeType.DIRECTORY) {
                        delete(child, entry.ino());
                    } else {
                        volume.unlink(ino, entry.name());
                    }
                } catch (FsException e) {
                    if (e.error() != FsError.ENOENT) { // removed by another client meanwhile: as good
                        throw HadoopErrors.translate(e, child);
                    }
                }
            }
        } while (!page.isEmpty());
    }
}
