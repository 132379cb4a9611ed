package io.strata.client;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.fsck.Problem;
import io.strata.meta.fsck.ProblemKind;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Data that a session sweep cut short left in the under storage: files under
 * {@code .strata/sessions/<session>/} that no keep-alive link in the metastore names. A sweep
 * removes a dead session's links before their data ({@link Sessions#sweep}), so a sweeping client
 * that crashed in between, or an unmount that stopped a sweep after waiting for it, leaves such
 * files, and no later sweep finds them: no link leads there. {@code strata fsck} reports them and,
 * with repairs, deletes them, and the directory of a swept session that they leave empty.
 *
 * <p>A live session's kept file has its link before its data moves in, and loses it just before
 * the data goes, so a check of a volume in use can report one caught in that instant; as with
 * fsck's other repairs, deleting is meant for a volume no client is changing.
 */
public final class SessionLeftovers {
    private SessionLeftovers() {}

    /** The leftovers, one problem each; with {@code repair}, deleted and marked repaired. */
    public static List<Problem> check(MetaStore meta, UnderFileSystem ufs, boolean repair) throws IOException {
        Optional<Long> sessionsDir = child(meta, Inode.ROOT, Sessions.RESERVED);
        if (sessionsDir.isPresent()) {
            sessionsDir = child(meta, sessionsDir.get(), Sessions.SESSIONS);
        }
        List<Problem> problems = new ArrayList<>();
        for (UfsStatus session : childrenIfAny(ufs, Sessions.SESSIONS_PATH)) {
            if (session.directory()) {
                Optional<Long> sessionDir = sessionsDir.isPresent()
                        ? child(meta, sessionsDir.get(), session.name()) : Optional.empty();
                problems.addAll(checkSession(meta, ufs, Sessions.sessionPath(session.name()), sessionDir, repair));
            }
        }
        return problems;
    }

    /** One session's directory in the under storage, against its directory in the metastore if it has one. */
    private static List<Problem> checkSession(MetaStore meta, UnderFileSystem ufs, String sessionPath,
            Optional<Long> sessionDir, boolean repair) throws IOException {
        List<UfsStatus> files = childrenIfAny(ufs, sessionPath);
        List<Problem> problems = new ArrayList<>();
        for (UfsStatus file : files) {
            boolean linked = sessionDir.isPresent() && child(meta, sessionDir.get(), file.name()).isPresent();
            if (file.directory() || linked) {
                continue;
            }
            String path = sessionPath + "/" + file.name();
            String detail = file.size() + " bytes in " + ufs.uri() + " that no keep-alive link names: a session"
                    + " sweep stopped between removing a dead session's link and deleting its data";
            if (repair) {
                ufs.deleteFile(path);
            }
            problems.add(new Problem(ProblemKind.SESSION_LEFTOVER, 0, "/" + path, detail,
                    "delete it from the under storage", repair));
        }
        if (repair && sessionDir.isEmpty() && !problems.isEmpty() && problems.size() == files.size()) {
            ufs.deleteDirectory(sessionPath); // a swept session's directory, emptied here
        }
        return problems;
    }

    /** The children of {@code dir} in the under storage; none when it does not exist. */
    private static List<UfsStatus> childrenIfAny(UnderFileSystem ufs, String dir) throws IOException {
        List<UfsStatus> children = new ArrayList<>();
        try {
            ufs.list(dir, children::add);
        } catch (FsException e) {
            if (e.error() != FsError.ENOENT) {
                throw e;
            }
        }
        return children;
    }

    private static Optional<Long> child(MetaStore meta, long dir, String name) throws IOException {
        return meta.lookup(dir, name).map(Dentry::ino);
    }
}
