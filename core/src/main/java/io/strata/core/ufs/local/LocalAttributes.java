package io.strata.core.ufs.local;

import io.strata.core.fs.FsError;
import io.strata.core.ufs.UfsStatus;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reads one entry's {@link UfsStatus} through the richest attribute view the platform offers.
 *
 * <p>The {@code unix} view (Linux, macOS) gives the full mode with setuid, setgid and sticky bits
 * and the numeric uid and gid in one stat; the {@code posix} view gives only the nine
 * permission bits and no numeric owner; elsewhere mode, uid and gid are -1. Links are never
 * followed: a symbolic link or a special file (fifo, socket, device) is not exposed.
 */
final class LocalAttributes {
    private static final String UNIX_QUERY = "unix:isDirectory,isRegularFile,size,lastModifiedTime,mode,uid,gid";
    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private enum View { UNIX, POSIX, BASIC }

    private final View view;

    private LocalAttributes(View view) {
        this.view = view;
    }

    static LocalAttributes forFileSystem(FileSystem fileSystem) {
        Set<String> views = fileSystem.supportedFileAttributeViews();
        if (views.contains("unix")) {
            return new LocalAttributes(View.UNIX);
        }
        return new LocalAttributes(views.contains("posix") ? View.POSIX : View.BASIC);
    }

    /** The entry's status, or empty if it does not exist or is not exposed. */
    Optional<UfsStatus> read(Path file, String name) throws IOException {
        try {
            return switch (view) {
                case UNIX -> readUnix(file, name);
                case POSIX -> readPosix(file, name);
                case BASIC -> readBasic(file, name);
            };
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (FileSystemException e) {
            // "a/b" where "a" is a file: b does not exist either.
            if (LocalErrors.errorOf(e) == FsError.ENOTDIR) {
                return Optional.empty();
            }
            throw LocalErrors.translate(e, "status", name);
        }
    }

    private static Optional<UfsStatus> readUnix(Path file, String name) throws IOException {
        Map<String, Object> a = Files.readAttributes(file, UNIX_QUERY, NOFOLLOW);
        boolean directory = (Boolean) a.get("isDirectory");
        if (!directory && !(Boolean) a.get("isRegularFile")) {
            return Optional.empty();
        }
        return Optional.of(status(name, directory, (Long) a.get("size"), (FileTime) a.get("lastModifiedTime"),
                (Integer) a.get("mode") & 07777, (Integer) a.get("uid"), (Integer) a.get("gid")));
    }

    private static Optional<UfsStatus> readPosix(Path file, String name) throws IOException {
        PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, NOFOLLOW);
        if (!exposed(a)) {
            return Optional.empty();
        }
        return Optional.of(status(name, a.isDirectory(), a.size(), a.lastModifiedTime(),
                permissionBits(a.permissions()), -1, -1));
    }

    private static Optional<UfsStatus> readBasic(Path file, String name) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW);
        if (!exposed(a)) {
            return Optional.empty();
        }
        return Optional.of(status(name, a.isDirectory(), a.size(), a.lastModifiedTime(), -1, -1, -1));
    }

    private static UfsStatus status(String name, boolean directory, long size, FileTime mtime, int mode, int uid,
                                    int gid) {
        long mtimeNs = mtimeNs(mtime);
        return directory
                ? new UfsStatus(name, true, 0, mtimeNs, mode, uid, gid, null)
                : new UfsStatus(name, false, size, mtimeNs, mode, uid, gid, version(size, mtimeNs));
    }

    /** Whether Strata shows this entry: regular files and directories, never links or special files. */
    static boolean exposed(BasicFileAttributes attributes) {
        return attributes.isRegularFile() || attributes.isDirectory();
    }

    static long mtimeNs(FileTime time) {
        return time.to(TimeUnit.NANOSECONDS);
    }

    /** A local file's content version: its size and modification time. */
    static String version(long size, long mtimeNs) {
        return size + "-" + mtimeNs;
    }

    private static int permissionBits(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission permission : permissions) {
            // OWNER_READ is declared first and is 0400; each later constant is the next lower bit.
            mode |= 0400 >> permission.ordinal();
        }
        return mode;
    }
}
