package io.strata.client;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Splits and checks the absolute, '/'-separated paths the frontends pass in. */
final class PathNames {
    /** NAME_MAX on Linux, in bytes. */
    static final int NAME_MAX = 255;

    private PathNames() {}

    /** The components of an absolute path; the root is an empty list. */
    static List<String> split(String path) throws FsException {
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new FsException(FsError.EINVAL, "not an absolute path: " + path);
        }
        List<String> names = new ArrayList<>();
        int start = 1;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            if (end > start) {
                names.add(checkName(path.substring(start, end)));
            }
            start = end + 1;
        }
        return names;
    }

    /** A single name as a directory entry may have it; frontends that pass names alone check them here. */
    static String checkName(String name) throws FsException {
        if (name.isEmpty() || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new FsException(FsError.EINVAL, "not a single path component: '" + name + "'");
        }
        if (name.equals(".") || name.equals("..")) {
            throw new FsException(FsError.EINVAL, "'" + name + "' cannot be created or looked up by name");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
            throw new FsException(FsError.ENAMETOOLONG, "name longer than " + NAME_MAX + " bytes");
        }
        return name;
    }

    /** The under-storage path (relative, no leading slash) of a namespace path. */
    static String ufsPath(List<String> names) {
        return String.join("/", names);
    }
}
