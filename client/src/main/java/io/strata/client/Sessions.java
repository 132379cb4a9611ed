package io.strata.client;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.SetAttr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * This mount's session in its volume: a heartbeat, the open files whose last name was removed
 * ("sustained" inodes), and the clean-up of sessions whose client died.
 *
 * <p>Sessions are built from the metastore's own atomic operations, so every engine has them
 * without an engine change: each session is a directory {@code /.strata/sessions/<id>} whose
 * mtime is its heartbeat. When the last name of a file open here is removed, the session keeps the
 * inode with a hard link {@code <ino>_<parent>_<hidden name>} in its directory, and the data moves
 * under that directory in the under storage, out of the user's directory. libfuse's high-level API
 * hides such a file instead of unlinking it (it renames it to {@code .fuse_hidden*} and unlinks that
 * name at the last close): the hidden name then stays in the namespace only, for libfuse's
 * path-based calls. An inode-based caller unlinks the name outright, and the link is
 * {@code <ino>_0_} (no inode is 0: no hidden name). The last close removes both. A client that dies
 * leaves its directory behind; any other client of the volume, sweeping after the session expired,
 * removes the hidden names, the inodes and their data. {@code /.strata} is reserved: the file
 * system hides it from listings and lookups.
 */
final class Sessions {
    private static final Logger log = LoggerFactory.getLogger(Sessions.class);

    /** The reserved directory at the volume root. */
    static final String RESERVED = ".strata";
    static final String SESSIONS = "sessions";
    /** Where the sessions' directories are, in the under storage as in the namespace. */
    static final String SESSIONS_PATH = RESERVED + "/" + SESSIONS;
    /**
     * The parent in a keep-alive link's name when there is no hidden name. Kept in the
     * three-part form so that any client's sweep can parse it: a lookup in inode 0 finds nothing.
     */
    private static final long NO_HIDDEN_PARENT = 0;

    private final MetaStore meta;
    private final UnderFileSystem ufs;
    private final LongSupplier clock;
    private final Duration expire;
    private final long sessionsDir;
    private final long own;
    private final String id;
    /** Kept inodes, by number: the name of their keep-alive link in this session's directory. */
    private final Map<Long, String> sustained = new ConcurrentHashMap<>();
    /**
     * Whether this session's directory was made in the under storage (by the first file it
     * kept): a session that kept none costs the storage no request, at its start or its close.
     */
    private volatile boolean ownDirectoryMade;

    private Sessions(MetaStore meta, UnderFileSystem ufs, LongSupplier clock, Duration expire, long sessionsDir,
                     long own, String id) {
        this.meta = meta;
        this.ufs = ufs;
        this.clock = clock;
        this.expire = expire;
        this.sessionsDir = sessionsDir;
        this.own = own;
        this.id = id;
    }

    /** Registers a new session in the volume. */
    static Sessions open(MetaStore meta, UnderFileSystem ufs, LongSupplier clock, Duration expire)
            throws IOException {
        requireNonNull(meta, "meta is null");
        requireNonNull(ufs, "ufs is null");
        long reserved = directory(meta, Inode.ROOT, RESERVED, clock.getAsLong());
        long sessionsDir = directory(meta, reserved, SESSIONS, clock.getAsLong());
        String id = UUID.randomUUID().toString();
        long own = meta.create(sessionsDir, id, NewInode.directory(0700, 0, 0, clock.getAsLong())).ino();
        log.info("session {} registered", id);
        return new Sessions(meta, ufs, clock, expire, sessionsDir, own, id);
    }

    /** The directory {@code name} in {@code parent}, made if missing (another client may race us). */
    private static long directory(MetaStore meta, long parent, String name, long nowNs) throws IOException {
        Optional<Dentry> existing = meta.lookup(parent, name);
        if (existing.isPresent()) {
            return existing.get().ino();
        }
        try {
            return meta.create(parent, name, NewInode.directory(0700, 0, 0, nowNs)).ino();
        } catch (FsException e) {
            if (e.error() != FsError.EEXIST) {
                throw e;
            }
            return meta.lookup(parent, name).orElseThrow(() -> e).ino();
        }
    }

    String id() {
        return id;
    }

    /** Records that this session is alive. */
    void heartbeat() throws IOException {
        long now = clock.getAsLong();
        meta.setAttr(own, SetAttr.times(null, now, now));
    }

    /**
     * Keeps an open inode alive before its last visible name goes: a link in this session's
     * directory that names the hidden name libfuse will use, and the under-storage directories its
     * data moves to.
     */
    void sustain(long ino, long hiddenParent, String hiddenName) throws IOException {
        keep(ino, ino + "_" + hiddenParent + "_" + hiddenName);
    }

    /** Keeps an open inode alive before its last name is removed outright (no hidden name follows). */
    void sustain(long ino) throws IOException {
        keep(ino, ino + "_" + NO_HIDDEN_PARENT + "_");
    }

    private void keep(long ino, String link) throws IOException {
        if (sustained.putIfAbsent(ino, link) != null) {
            return;
        }
        try {
            ufs.mkdir(RESERVED);
            ufs.mkdir(SESSIONS_PATH);
            ufs.mkdir(ownPath());
            ownDirectoryMade = true;
            meta.link(ino, own, link, clock.getAsLong());
        } catch (IOException | RuntimeException e) {
            sustained.remove(ino, link); // not kept: the last close must not look for the link
            throw e;
        }
    }

    /** Whether this session keeps the inode: then one of its links is the keep-alive link, no user's name. */
    boolean isSustained(long ino) {
        return sustained.containsKey(ino);
    }

    /**
     * After the last close: removes the hidden name and the keep-alive link. The removal of the
     * link says what became of the inode and its data.
     */
    Optional<Removal> release(long ino) throws IOException {
        String link = sustained.remove(ino);
        if (link == null) {
            return Optional.empty();
        }
        return Optional.of(removeKept(own, ownPath(), link, clock.getAsLong()));
    }

    /** Removes a kept inode's hidden name (if any, and if it still names it) and then its keep-alive link. */
    private Removal removeKept(long sessionDir, String sessionPath, String link, long nowNs) throws IOException {
        String[] parts = link.split("_", 3);
        long ino = Long.parseLong(parts[0]);
        long hiddenParent = Long.parseLong(parts[1]);
        String hiddenName = parts[2];
        try {
            // By inode, not by name: the name may have been taken by another file since.
            Optional<Dentry> hidden = hiddenParent == NO_HIDDEN_PARENT ? Optional.empty()
                    : meta.lookup(hiddenParent, hiddenName);
            if (hidden.isPresent() && hidden.get().ino() == ino) {
                meta.unlink(hiddenParent, hiddenName, nowNs); // not the data's name: nothing moves
            }
        } catch (FsException e) {
            log.debug("hidden name of kept inode {} already gone: {}", ino, e.getMessage());
        }
        return new Removal(meta.unlink(sessionDir, link, nowNs), sessionPath + "/" + link);
    }

    /** A removed keep-alive link and the under-storage path it held the data at. */
    record Removal(RemovedLink link, String ufsPath) {}

    /**
     * What ended sessions leave for the caller to remove from the under storage, in this order:
     * each removed link's data, then the sessions' directories, which hold that data until then.
     */
    record Ended(List<Removal> removals, List<String> directories) {
        Ended {
            removals = List.copyOf(removals);
            directories = List.copyOf(directories);
        }
    }

    private String ownPath() {
        return sessionPath(id);
    }

    /** The directory of the session named {@code session}, holding the data of what it keeps. */
    static String sessionPath(String session) {
        return SESSIONS_PATH + "/" + session;
    }

    /**
     * Removes every other session whose heartbeat is older than the expiry from the metastore: the
     * inodes it kept and its directory. Returns what the caller then removes from the under storage.
     */
    Ended sweep() throws IOException {
        long now = clock.getAsLong();
        List<Removal> removed = new ArrayList<>();
        List<String> directories = new ArrayList<>();
        for (Dentry session : all(sessionsDir)) {
            if (session.ino() == own) {
                continue;
            }
            Inode dir;
            try {
                dir = meta.getInode(session.ino());
            } catch (FsException e) {
                continue; // another client swept it first
            }
            if (now - dir.mtimeNs() <= expire.toNanos()) {
                continue;
            }
            log.info("session {} expired (no heartbeat for {} s): removing what it kept open", session.name(),
                    (now - dir.mtimeNs()) / 1_000_000_000L);
            String path = sessionPath(session.name());
            for (Dentry kept : all(session.ino())) {
                try {
                    removed.add(removeKept(session.ino(), path, kept.name(), now));
                } catch (FsException | RuntimeException e) {
                    log.debug("kept inode {} of session {} already gone", kept.name(), session.name());
                }
            }
            try {
                meta.rmdir(sessionsDir, session.name(), now);
                directories.add(path);
            } catch (FsException e) {
                log.debug("session directory {} already gone or not empty: {}", session.name(), e.getMessage());
            }
        }
        return new Ended(removed, directories);
    }

    /**
     * Ends this session in the metastore: what it still keeps is released, its directory removed.
     * Returns what the caller then removes from the under storage.
     */
    Ended close() throws IOException {
        List<Removal> removed = new ArrayList<>();
        for (long ino : List.copyOf(sustained.keySet())) {
            release(ino).ifPresent(removed::add);
        }
        meta.rmdir(sessionsDir, id, clock.getAsLong());
        log.info("session {} closed", id);
        return new Ended(removed, ownDirectoryMade ? List.of(ownPath()) : List.of());
    }

    /** Collected first: the sweep removes entries, which paging through them would skip past. */
    private List<Dentry> all(long dir) throws IOException {
        List<Dentry> entries = new ArrayList<>();
        Directories.forEachEntry(meta, dir, entries::add);
        return entries;
    }
}
