package io.strata.client;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.DirectoryListing;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStore.ListedEntry;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongPredicate;

import static java.util.Objects.requireNonNull;

/**
 * Resolves paths, and names in directories given by inode, to inodes, merging each directory's
 * under-storage listing into the metastore the first time the directory is looked into (lazy sync).
 *
 * <p>By default a directory's listing is merged once: afterwards the metastore is the source of
 * truth for it, and changes made directly in the under storage show only in directories not yet
 * visited. With {@code metadata_sync_interval}, a directory is listed again when its last listing
 * is older than that, and follows the storage (see {@link #resync}).
 */
final class Namespace {
    private static final Logger log = LoggerFactory.getLogger(Namespace.class);
    /** Entries merged per metastore call, so a huge directory is merged in bounded memory. */
    private static final int MERGE_BATCH = 1000;

    private final MetaStore meta;
    private final UnderFileSystem ufs;
    private final Object[] syncLocks = new Object[64];
    /** metadata_sync_interval: null lists each directory once. */
    private final Duration syncInterval;
    /** Whether this client holds an inode open: a re-listing never removes or changes those. */
    private final LongPredicate isOpen;
    private volatile ChangeListener changes = ChangeListener.NONE;
    /** Parents whose sibling listing did not hold the directory asked for: their children are listed one by one. */
    private final Cache<Long, Boolean> parentsListedOneByOne = Caffeine.newBuilder().maximumSize(4096).build();

    Namespace(MetaStore meta, UnderFileSystem ufs, Duration syncInterval, LongPredicate isOpen) {
        this.meta = requireNonNull(meta, "meta is null");
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.syncInterval = syncInterval;
        this.isOpen = requireNonNull(isOpen, "isOpen is null");
        for (int i = 0; i < syncLocks.length; i++) {
            syncLocks[i] = new Object();
        }
    }

    /** A resolved path: the inode and the names that lead to it from the root. */
    record Resolved(Inode inode, List<String> names) {
        String ufsPath() {
            return PathNames.ufsPath(names);
        }
    }

    Resolved resolve(String path) throws IOException {
        return resolve(PathNames.split(path));
    }

    Resolved resolve(List<String> names) throws IOException {
        Inode current = meta.getInode(Inode.ROOT);
        for (int i = 0; i < names.size(); i++) {
            if (!current.isDirectory()) {
                throw new FsException(FsError.ENOTDIR, "not a directory: /" + String.join("/", names.subList(0, i)));
            }
            String dirPath = PathNames.ufsPath(names.subList(0, i));
            Optional<Dentry> entry = entry(inDirectory(current, dirPath, names.get(i)));
            if (entry.isEmpty()) {
                throw FsException.notFound("/" + String.join("/", names.subList(0, i + 1)));
            }
            current = meta.getInode(entry.get().ino());
        }
        return new Resolved(current, names);
    }

    /** The parent directory of a path to create or remove, and the last name (checked). */
    ParentAndName parentOf(String path) throws IOException {
        List<String> names = PathNames.split(path);
        if (names.isEmpty()) {
            throw new FsException(FsError.EBUSY, "the root has no parent");
        }
        Resolved parent = resolve(names.subList(0, names.size() - 1));
        if (!parent.inode().isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "not a directory: /" + parent.ufsPath());
        }
        return inDirectory(parent.inode(), parent.ufsPath(), names.get(names.size() - 1));
    }

    /**
     * The name {@code name} in directory {@code parentIno}, for callers that name a directory by
     * inode: the name is checked here, as {@link PathNames#split} checks a path's names.
     */
    ParentAndName childOf(long parentIno, String name) throws IOException {
        Inode parent = directoryFor(parentIno, name);
        return inDirectory(parent, dataPath(parent), name);
    }

    /**
     * The entry {@code name} in directory {@code parentIno} refers to, or empty: {@link #childOf}
     * then {@link #entry}, without building the directory's under-storage path unless its listing
     * must be merged first. A lookup is the kernel's most frequent request, and the path is a walk
     * up the tree, an inode read per ancestor.
     */
    Optional<Dentry> lookup(long parentIno, String name) throws IOException {
        syncIfNeeded(directoryFor(parentIno, name));
        return entry(parentIno, name);
    }

    /** The directory {@code parentIno}, for a name in it: the name checked, ENOTDIR for a non-directory. */
    private Inode directoryFor(long parentIno, String name) throws IOException {
        PathNames.checkName(name);
        Inode parent = meta.getInode(parentIno);
        if (!parent.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "inode " + parentIno + " is not a directory");
        }
        return parent;
    }

    /** {@link #syncIfNeeded(Inode, String)}, building the directory's path only when it is merged. */
    void syncIfNeeded(Inode dir) throws IOException {
        if (needsSync(dir)) {
            syncIfNeeded(dir, dataPath(dir));
        }
    }

    /** A name in a directory whose under-storage listing is merged, so the name's entry is known. */
    private ParentAndName inDirectory(Inode parent, String parentPath, String name) throws IOException {
        syncIfNeeded(parent, parentPath);
        return new ParentAndName(parent, parentPath, name);
    }

    /**
     * A parent directory and a name in it. {@code parentPath} is the directory's under-storage
     * path ("" for the root), so the name's own path needs no walk up the tree.
     */
    record ParentAndName(Inode parent, String parentPath, String name) {
        long parentIno() {
            return parent.ino();
        }

        /** Where the name's data lives in the under storage when it is an inode's primary link. */
        String ufsPath() {
            return parentPath.isEmpty() ? name : parentPath + "/" + name;
        }
    }

    /**
     * The entry a name refers to, or empty; the caller merged the directory's listing first. The
     * reserved directory at the root is never found: it is the volume's own bookkeeping, not part
     * of the file system.
     */
    Optional<Dentry> entry(ParentAndName child) throws IOException {
        return entry(child.parentIno(), child.name());
    }

    private Optional<Dentry> entry(long parentIno, String name) throws IOException {
        if (parentIno == Inode.ROOT && name.equals(Sessions.RESERVED)) {
            return Optional.empty();
        }
        return meta.lookup(parentIno, name);
    }

    /** Makes sure a directory's under-storage listing has been merged. */
    void syncIfNeeded(Inode dir, String ufsPath) throws IOException {
        if (!needsSync(dir)) {
            return;
        }
        SiblingListings siblings;
        synchronized (syncLock(dir.ino())) {
            Inode current = meta.getInode(dir.ino());
            if (!needsSync(current)) {
                return; // another thread merged it while we waited
            }
            if (current.syncedNs() != Inode.NEVER_SYNCED) {
                resync(dir, ufsPath);
                return;
            }
            siblings = mergeFirstListing(current, ufsPath);
        }
        // Each under its own lock, not this directory's: never two sync locks at once.
        for (DirectoryListing sibling : siblings.listings()) {
            mergeSibling(dir.parent(), sibling, siblings.startNs());
        }
    }

    private Object syncLock(long ino) {
        return syncLocks[Long.hashCode(ino) & (syncLocks.length - 1)];
    }

    /** Never listed, or listed longer ago than metadata_sync_interval (when set). */
    private boolean needsSync(Inode dir) {
        if (dir.syncedNs() == Inode.NEVER_SYNCED) {
            return true;
        }
        return syncInterval != null && Clocks.nowNs() - dir.syncedNs() >= syncInterval.toNanos();
    }

    /**
     * The first listing. Where the storage lists a subtree at once, it comes with the whole
     * listings of the sibling directories that follow it (a walk's next ones, {@link
     * UnderFileSystem#listSiblings}), which are returned for the caller to merge; else it is merged
     * page by page, in bounded memory whatever the directory's size.
     */
    private SiblingListings mergeFirstListing(Inode dir, String ufsPath) throws IOException {
        long startNs = Clocks.nowNs();
        int slash = ufsPath.lastIndexOf('/');
        String name = ufsPath.substring(slash + 1);
        List<DirectoryListing> siblings = ufsPath.isEmpty() ? List.of()
                : siblingListings(dir, slash < 0 ? "" : ufsPath.substring(0, slash), name);
        for (DirectoryListing listing : siblings) {
            if (listing.name().equals(name)) {
                mergeAll(dir.ino(), listing.entries(), startNs);
                meta.markSynced(dir.ino(), startNs);
                List<DirectoryListing> others = new ArrayList<>(siblings);
                others.remove(listing);
                return new SiblingListings(startNs, others);
            }
        }
        List<ListedEntry> batch = new ArrayList<>(MERGE_BATCH);
        IOException[] failure = new IOException[1];
        try {
            ufs.list(ufsPath, status -> {
                if (failure[0] != null) {
                    return;
                }
                batch.add(toEntry(status, startNs));
                if (batch.size() == MERGE_BATCH) {
                    try {
                        meta.mergeListing(dir.ino(), List.copyOf(batch));
                    } catch (IOException e) {
                        failure[0] = e;
                    }
                    batch.clear();
                }
            });
        } catch (FsException e) {
            if (e.error() != FsError.ENOENT) {
                throw e;
            }
            // The directory exists only in the namespace (removed behind our back): nothing to merge.
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        if (!batch.isEmpty()) {
            meta.mergeListing(dir.ino(), batch);
        }
        meta.markSynced(dir.ino(), startNs);
        return SiblingListings.NONE;
    }

    /** Sibling directories' whole listings, taken at {@code startNs}. */
    private record SiblingListings(long startNs, List<DirectoryListing> listings) {
        static final SiblingListings NONE = new SiblingListings(0, List.of());
    }

    /**
     * The listings of {@code dir} (named {@code name} in {@code parentPath}) and its next siblings
     * from one request, where the storage is remote and can give them; empty where it cannot, or
     * did not for this parent before (its subdirectories hold more than a request covers: asking
     * again would cost a request each).
     */
    private List<DirectoryListing> siblingListings(Inode dir, String parentPath, String name) throws IOException {
        if (!ufs.remote() || parentsListedOneByOne.getIfPresent(dir.parent()) != null) {
            return List.of();
        }
        List<DirectoryListing> listings;
        try {
            listings = ufs.listSiblings(parentPath, name);
        } catch (IOException e) {
            // A store that refuses the recursive request (or failed it) still lists directory by
            // directory; a real failure shows there, where the caller expects it.
            log.debug("no sibling listings for '{}' in '{}': {}", name, parentPath, e.toString());
            listings = List.of();
        }
        if (listings.stream().noneMatch(listing -> listing.name().equals(name))) {
            parentsListedOneByOne.put(dir.parent(), Boolean.TRUE);
        }
        return listings;
    }

    /**
     * A sibling's whole listing, merged as its first listing, unless it was listed meanwhile or
     * its name in the parent is no longer a directory whose data lives there. Under the sibling's
     * sync lock, as its own first listing would be: a change made in it once it is synced (a file
     * removed) must not be undone by a listing older than the change.
     */
    private void mergeSibling(long parentIno, DirectoryListing listing, long startNs) throws IOException {
        Optional<Dentry> entry = meta.lookup(parentIno, listing.name());
        if (entry.isEmpty()) {
            return;
        }
        synchronized (syncLock(entry.get().ino())) {
            Inode sibling = meta.getInode(entry.get().ino());
            if (!sibling.isDirectory() || sibling.syncedNs() != Inode.NEVER_SYNCED
                    || sibling.parent() != parentIno || !sibling.name().equals(listing.name())) {
                return;
            }
            mergeAll(sibling.ino(), listing.entries(), startNs);
            meta.markSynced(sibling.ino(), startNs);
        }
    }

    /** Merges {@code entries} into directory {@code dirIno}, {@link #MERGE_BATCH} at a time. */
    private void mergeAll(long dirIno, Collection<UfsStatus> entries, long nowNs) throws IOException {
        List<ListedEntry> batch = new ArrayList<>(Math.min(entries.size(), MERGE_BATCH));
        for (UfsStatus status : entries) {
            batch.add(toEntry(status, nowNs));
            if (batch.size() == MERGE_BATCH) {
                meta.mergeListing(dirIno, List.copyOf(batch));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            meta.mergeListing(dirIno, batch);
        }
    }

    /**
     * A later listing (metadata_sync_interval): new entries are added, files whose content version
     * changed take the storage's size, mtime and version, and files and empty directories gone
     * from the storage are removed. Left alone: open files, names that are not where an inode's
     * data lives (hard links), and what lives only in the metastore (symlinks, devices). Holds the
     * directory's listing in memory, one small record per entry.
     */
    private void resync(Inode dir, String ufsPath) throws IOException {
        long startNs = Clocks.nowNs();
        Map<String, UfsStatus> listed = new HashMap<>();
        try {
            ufs.list(ufsPath, status -> listed.put(status.name(), status));
        } catch (FsException e) {
            if (e.error() != FsError.ENOENT) {
                throw e;
            }
        }
        mergeAll(dir.ino(), listed.values(), startNs);
        Directories.forEachEntry(meta, dir.ino(), entry -> followStorage(dir, entry, listed.get(entry.name())));
        meta.markSynced(dir.ino(), startNs);
    }

    /** Brings one entry in line with what the storage listed for its name (null: nothing). */
    private void followStorage(Inode dir, Dentry entry, UfsStatus listed) throws IOException {
        if (!entry.type().inUnderStorage() || (dir.ino() == Inode.ROOT && entry.name().equals(Sessions.RESERVED))) {
            return;
        }
        Inode inode = meta.getInode(entry.ino());
        boolean dataLivesHere = inode.parent() == dir.ino() && inode.name().equals(entry.name());
        if (!dataLivesHere || isOpen.test(inode.ino())) {
            return;
        }
        long now = Clocks.nowNs();
        if (listed == null) {
            try {
                if (inode.isFile()) {
                    meta.unlink(dir.ino(), entry.name(), now); // its data is already gone
                } else {
                    meta.rmdir(dir.ino(), entry.name(), now);
                }
                changes.entryRemoved(dir.ino(), entry.name(), inode.ino());
            } catch (FsException e) {
                if (e.error() != FsError.ENOTEMPTY && e.error() != FsError.ENOENT) {
                    throw e;
                }
            }
        } else if (inode.isFile() && !listed.directory() && !Objects.equals(listed.version(), inode.ufsVersion())) {
            meta.setAttr(inode.ino(), SetAttr.content(listed.size(), listed.mtimeNs(), listed.version()));
            changes.contentChanged(inode.ino());
        }
    }

    /**
     * A file whose data an open or a read found gone from the under storage (removed there by
     * another tool): its name goes as a re-listing would remove it, and the frontend is told, so
     * the name no longer lists only to fail when opened. Left alone, as a re-listing leaves them:
     * a file this client holds open (called again at its last release), and one with more than one
     * name (the others live only in the metastore, and the data would move to one of them). The
     * storage is asked first ({@link #confirmedGone}). Like a re-listing, it does not lock out this
     * client's own rename onto the name in between.
     */
    void removeVanished(long ino) throws IOException {
        Inode inode;
        try {
            inode = meta.getInode(ino);
        } catch (FsException e) {
            if (e.error() == FsError.ENOENT) {
                return; // removed meanwhile
            }
            throw e;
        }
        if (!inode.isFile() || inode.nlink() != 1 || isOpen.test(ino) || !confirmedGone(inode)) {
            return;
        }
        synchronized (syncLock(inode.parent())) {
            Optional<Dentry> entry = meta.lookup(inode.parent(), inode.name());
            if (entry.isEmpty() || entry.get().ino() != ino) {
                return;
            }
            try {
                meta.unlink(inode.parent(), inode.name(), Clocks.nowNs()); // its data is already gone
            } catch (FsException e) {
                if (e.error() == FsError.ENOENT) {
                    return;
                }
                throw e;
            }
        }
        log.info("'{}' (inode {}) is gone from the under storage: its name is removed", dataPath(inode), ino);
        changes.entryRemoved(inode.parent(), inode.name(), ino);
    }

    /**
     * Whether the storage, asked again, has the volume's root but not the file: an ENOENT from a
     * storage that is not there as a whole (a source directory moved or unmounted) removes nothing.
     */
    private boolean confirmedGone(Inode file) {
        try {
            return ufs.status("").isPresent() && ufs.status(dataPath(file)).isEmpty();
        } catch (IOException | RuntimeException e) {
            log.debug("could not confirm that inode {} is gone from the under storage", file.ino(), e);
            return false;
        }
    }

    /** Who hears of the changes a re-listing finds (the frontend's caches). */
    void setChangeListener(ChangeListener listener) {
        this.changes = requireNonNull(listener, "listener is null");
    }

    private static ListedEntry toEntry(UfsStatus status, long nowNs) {
        InodeType type = status.directory() ? InodeType.DIRECTORY : InodeType.FILE;
        int mode = status.mode() >= 0 ? status.mode() & 07777 : (status.directory() ? 0755 : 0644);
        NewInode spec = new NewInode(type, mode, Math.max(status.uid(), 0), Math.max(status.gid(), 0), 0,
                status.directory() ? 0 : status.size(), status.mtimeNs(), status.mtimeNs(), null,
                status.version());
        return new ListedEntry(status.name(), spec);
    }

    /** The under-storage path where an inode's data lives: its primary link's path. */
    String dataPath(Inode inode) throws IOException {
        Deque<String> names = new ArrayDeque<>();
        Inode current = inode;
        while (current.ino() != Inode.ROOT) {
            names.addFirst(current.name());
            current = meta.getInode(current.parent());
        }
        return String.join("/", names);
    }
}
