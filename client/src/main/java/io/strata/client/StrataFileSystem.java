package io.strata.client;

import io.strata.core.buffer.LentBytesSink;
import io.strata.core.concurrent.DaemonThreads;
import io.strata.meta.MetaStoreUrls;
import com.github.benmanes.caffeine.cache.Ticker;
import io.strata.client.metacache.CachedMetaStore;
import io.strata.client.metacache.MetadataCacheOptions;
import io.strata.client.metrics.MeteredMetaStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.PageCache;
import io.strata.core.cache.PageRegions;
import io.strata.core.cache.PageStoreConfig;
import io.strata.core.cache.CacheOptions;
import io.strata.core.conf.Options;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.readahead.ReadaheadOptions;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.core.ufs.metrics.MeteredUnderFileSystem;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * POSIX semantics over a volume: the namespace from the metastore, the data from the under storage.
 *
 * <p>Frontends call this with inode numbers (the metastore's) and names, as the kernel's FUSE
 * protocol does, or with absolute paths (libfuse's high-level API, Hadoop): each path method
 * resolves its paths through {@link Namespace} and calls the inode method, so every operation has
 * one implementation. It keeps one {@link OpenFile} per open inode, and brings the under storage
 * along after each namespace change (a file's data lives at its primary link's path). Metadata-only
 * operations (chmod, chown, utimens, xattrs, symlinks, hard links) touch only the metastore.
 * Every method is safe to call from many threads.
 */
public final class StrataFileSystem implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StrataFileSystem.class);

    /** The volume setting that binds a metastore to one under storage. */
    public static final String UFS_URI_SETTING = "ufs_uri";
    /** The volume setting naming this namespace in page-cache keys (see {@link DataCache}). */
    static final String VOLUME_ID_SETTING = "volume_id";
    /**
     * A virtual extended attribute: {@code "<cached bytes> <size>"} of a file in the page cache.
     * Read by {@code strata warmup --check}; never listed, stored or settable.
     */
    public static final String CACHED_XATTR = "user.strata.cached";
    /**
     * A virtual extended attribute: a JSON object describing the inode ({@link InodeInfo}): its
     * attributes, its under-storage path and version, its cached pages per tier. Read by
     * {@code strata info}; never listed, stored or settable.
     */
    public static final String INFO_XATTR = "user.strata.info";
    /**
     * The largest file, in bytes: 16 TiB, ext4's limit with 4 KiB blocks (and above S3's 5 TiB
     * objects, which fail at upload before it). truncate and write beyond it are EFBIG.
     */
    public static final long MAX_FILE_SIZE = 1L << 44;
    /** renameat2(2): fail with EEXIST instead of replacing the target (Linux's value). */
    public static final int RENAME_NOREPLACE = 1;
    /** renameat2(2): swap source and target (Linux's value); not supported, EINVAL. */
    public static final int RENAME_EXCHANGE = 2;
    // open(2) flags, Linux's values.
    private static final int O_ACCMODE = 3;
    private static final int O_RDWR = 2;
    private static final int O_TRUNC = 01000;
    /**
     * The kernel's mark on an open by execve(2) (FMODE_EXEC, Linux's internal open flag, which FUSE
     * passes on in OPEN's flags). That file stays open, and the kernel keeps it from writers, for as
     * long as the program runs.
     */
    public static final int FMODE_EXEC = 040;
    // st_mode's set-ID bits and group execute.
    private static final int S_ISUID = 04000;
    private static final int S_ISGID = 02000;
    private static final int S_IXGRP = 00010;
    /** Extended attributes that hold POSIX ACLs. */
    private static final String POSIX_ACL_PREFIX = "system.posix_acl_";
    /** Extended attributes that hold security labels and file capabilities. */
    private static final String SECURITY_PREFIX = "security.";
    /** The names libfuse2 gives files it hides when they are unlinked while open. */
    private static final String LIBFUSE_HIDDEN_PREFIX = ".fuse_hidden";
    /**
     * How long an unmount waits for a session sweep under way (a dead client's kept files, each a
     * metastore write and a delete in the under storage) before it stops it.
     */
    private static final Duration SWEEP_AT_CLOSE = Duration.ofSeconds(30);

    private final MetaStore meta;
    private final UnderFileSystem ufs;
    private final String metaUrl;
    private final boolean readOnly;
    private final Namespace namespace;
    private final OpenFiles openFiles;
    private final DataCache dataCache;
    private final DirectoryReadahead directoryReadahead;
    private final MeterRegistry meters;
    private final ConcurrentMap<Long, FileHandle> handles = new ConcurrentHashMap<>();
    /** By inode, how many of its handles a running program holds (opened with {@link #FMODE_EXEC}). */
    private final ConcurrentMap<Long, Integer> executing = new ConcurrentHashMap<>();
    /** Open files a read found gone from the under storage: their names go at their last release. */
    private final Set<Long> vanished = ConcurrentHashMap.newKeySet();
    private final OpenFile.StorageChanges storageChanges = new StorageChangesFound();
    private final AtomicLong nextHandle = new AtomicLong(1);
    /** This client's session; null for a read-only mount, which never keeps an unlinked file. */
    private volatile Sessions sessions;
    private volatile ChangeListener changes = ChangeListener.NONE;
    private ScheduledExecutorService sessionKeeper;

    StrataFileSystem(MetaStore meta, UnderFileSystem ufs, String metaUrl, boolean readOnly, DataCache dataCache,
                     MeterRegistry meters) {
        this(meta, ufs, metaUrl, readOnly, dataCache, meters, null);
    }

    /** {@code syncInterval}: metadata_sync_interval, null to list each directory once. */
    StrataFileSystem(MetaStore meta, UnderFileSystem ufs, String metaUrl, boolean readOnly, DataCache dataCache,
                     MeterRegistry meters, Duration syncInterval) {
        this(meta, ufs, metaUrl, readOnly, dataCache, meters, syncInterval, 0);
    }

    /** {@code dirReadahead}: small files read ahead of a directory's reader (dir_readahead), 0 for none. */
    StrataFileSystem(MetaStore meta, UnderFileSystem ufs, String metaUrl, boolean readOnly, DataCache dataCache,
                     MeterRegistry meters, Duration syncInterval, int dirReadahead) {
        this.meta = requireNonNull(meta, "meta is null");
        this.ufs = requireNonNull(ufs, "ufs is null");
        // Only ever shown (mount line, logs, errors): never with its password.
        this.metaUrl = MetaStoreUrls.redact(requireNonNull(metaUrl, "metaUrl is null"));
        this.readOnly = readOnly;
        this.dataCache = requireNonNull(dataCache, "dataCache is null");
        this.meters = requireNonNull(meters, "meters is null");
        this.openFiles = new OpenFiles(ufs, meta, dataCache, syncInterval == null);
        this.namespace = new Namespace(meta, ufs, syncInterval, ino -> openFiles.get(ino).isPresent());
        this.directoryReadahead = new DirectoryReadahead(meta, namespace, ufs, dataCache, dirReadahead, meters);
    }

    /**
     * Opens the volume over {@code source}: its under storage and its metastore ({@code meta}, or
     * by default an SQLite file under {@code state_dir}). A metastore already bound to another
     * source is refused, so two directories never share one namespace by accident.
     */
    public static StrataFileSystem open(URI source, Options options) throws IOException {
        return open(source, options, new SimpleMeterRegistry());
    }

    /**
     * The same, counting in {@code meters}: the page store's, the readahead's, and every call into
     * the metastore engine and the under storage ({@link MeteredMetaStore}, {@link MeteredUnderFileSystem}).
     */
    public static StrataFileSystem open(URI source, Options options, MeterRegistry meters) throws IOException {
        return open(source, options, meters, StorageCheck.AT_OPEN);
    }

    /** The same, making sure of the under storage when {@code check} says. */
    public static StrataFileSystem open(URI source, Options options, MeterRegistry meters, StorageCheck check)
            throws IOException {
        requireNonNull(meters, "meters is null");
        requireNonNull(check, "check is null");
        // Opening the under storage (over S3: building the client, then a first request that checks
        // the bucket, ~0.7 s of a fresh JVM's mount) and opening the metastore and the page cache
        // are independent: overlapped, a mount waits for the slowest of them, not for their sum.
        // Normalized as the storage's own URI is (no trailing slash): one source, one default metastore.
        URI uri = UnderFileSystems.toUri(source.toString());
        UfsOpening opening = UfsOpening.start(source, uri, options);
        String metaUrl = Optional.ofNullable(options.get(VolumeOptions.META))
                .orElseGet(() -> Volumes.defaultMetaUrl(Path.of(options.get(VolumeOptions.STATE_DIR)), uri));
        MetaStore meta = null;
        DataCache dataCache = null;
        UnderFileSystem ufs;
        try {
            meta = MetaStores.open(metaUrl);
            bind(meta, uri, MetaStoreUrls.redact(metaUrl));
            dataCache = openDataCache(meta, VolumeFormat.withVolumePageSize(meta, options), uri, meters);
            ufs = new MeteredUnderFileSystem(check == StorageCheck.AT_FIRST_USE
                    ? new DeferredUnderFileSystem(opening, uri) : opening.await(), meters);
        } catch (IOException | RuntimeException e) {
            try (UfsOpening closing = opening; MetaStore m = meta; DataCache d = dataCache) {
                throw e;
            }
        }
        MetaStore metered = new MeteredMetaStore(meta, meters);
        StrataFileSystem fs = new StrataFileSystem(withHeapCache(metered, options), ufs, metaUrl,
                options.get(VolumeOptions.READ_ONLY), dataCache, meters,
                options.get(VolumeOptions.METADATA_SYNC_INTERVAL), options.get(ReadaheadOptions.DIR_READAHEAD));
        if (!fs.readOnly) {
            try {
                fs.startSession(options.get(VolumeOptions.SESSION_EXPIRE));
            } catch (IOException | RuntimeException e) {
                try (fs) {
                    throw e;
                }
            }
        }
        return fs;
    }

    /**
     * Registers this client's session and keeps it alive: a heartbeat a few times per expiry
     * period, each followed by a sweep of sessions whose clients died.
     */
    private void startSession(Duration expire) throws IOException {
        sessions = Sessions.open(meta, ufs, Clocks::nowNs, expire);
        sessionKeeper = Executors.newSingleThreadScheduledExecutor(
                DaemonThreads.named("strata-session-" + sessions.id()));
        long periodMs = Math.max(expire.toMillis() / 4, 100);
        sessionKeeper.scheduleWithFixedDelay(this::keepSessionAlive, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    private void keepSessionAlive() {
        Sessions.Ended swept;
        try {
            sessions.heartbeat();
            swept = sessions.sweep();
        } catch (IOException | RuntimeException e) {
            log.warn("session heartbeat or sweep failed (retried at the next beat): {}", e.toString());
            return;
        }
        for (IOException e : removeFromStorage(swept)) {
            log.warn("a dead session is out of the metastore, but not all of it out of the under storage: {}",
                    e.toString());
        }
    }

    /**
     * Removes what ended sessions left in the under storage: each removed keep-alive link's data
     * (deleted, or moved to where its inode's other names expect it), each on its own, since their
     * links are gone already and one failure must not leave the others' data behind; then the
     * sessions' directories, which held that data. The failures, each naming its path.
     */
    private List<IOException> removeFromStorage(Sessions.Ended ended) {
        List<IOException> failures = new ArrayList<>();
        for (Sessions.Removal removal : ended.removals()) {
            try {
                followRemoval(removal.link(), removal.ufsPath());
            } catch (IOException | RuntimeException e) {
                failures.add(new IOException("data of " + removal.ufsPath() + " not removed: " + e, e));
            }
        }
        for (String directory : ended.directories()) {
            try {
                ufs.deleteDirectory(directory);
            } catch (FsException e) {
                log.debug("session directory {} left in the under storage: {}", directory, e.getMessage());
            } catch (IOException | RuntimeException e) {
                failures.add(new IOException("session directory " + directory + " not removed: " + e, e));
            }
        }
        return failures;
    }

    /**
     * Stops the heartbeats and waits for one under way. A sweep removes a dead session's links
     * first and their data after; cut short by the metastore's close at unmount, it left data that
     * no link names and no later sweep finds.
     */
    private void stopSessionKeeper() {
        sessionKeeper.shutdown();
        try {
            if (!sessionKeeper.awaitTermination(SWEEP_AT_CLOSE.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("a session sweep still ran {} s into the unmount and was stopped: data of a dead"
                        + " session's unlinked files may be left under /{}/{} in the under storage",
                        SWEEP_AT_CLOSE.toSeconds(), Sessions.RESERVED, Sessions.SESSIONS);
                sessionKeeper.shutdownNow();
            }
        } catch (InterruptedException e) {
            sessionKeeper.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** The page cache: in local_data_cache, or by default in the volume's directory under state_dir. */
    private static DataCache openDataCache(MetaStore meta, Options options, URI source, MeterRegistry meters)
            throws IOException {
        if ("file".equals(source.getScheme()) && !pageCacheAsked(options)) {
            // A local source is as near as the cache would be: caching its pages costs a second
            // write of every page read (measured: sequential reads 865 -> 330 MB/s) and wins nothing.
            log.info("page cache off for the local source {} (set local_data_cache, local_data_cache_size or"
                    + " local_cache_memory_size to use it)", source);
            return DataCache.disabled();
        }
        Path defaultDir = Volumes.cacheDir(Path.of(options.get(VolumeOptions.STATE_DIR)), source);
        PageCache cache = PageCache.open(PageStoreConfig.from(options, defaultDir), meters);
        return cache == null ? DataCache.disabled() : new DataCache(cache, volumeId(meta));
    }

    private static boolean pageCacheAsked(Options options) {
        return options.isSet(CacheOptions.LOCAL_DATA_CACHE) || options.isSet(CacheOptions.LOCAL_DATA_CACHE_SIZE)
                || options.isSet(CacheOptions.MEMORY_SIZE);
    }

    /** The volume's id, made once per metastore. */
    static String volumeId(MetaStore meta) throws IOException {
        Optional<String> id = meta.getSetting(VOLUME_ID_SETTING);
        if (id.isPresent()) {
            return id.get();
        }
        meta.putSetting(VOLUME_ID_SETTING, UUID.randomUUID().toString());
        return meta.getSetting(VOLUME_ID_SETTING).orElseThrow();
    }

    private static MetaStore withHeapCache(MetaStore meta, Options options) {
        int entries = options.get(MetadataCacheOptions.SIZE);
        if (entries == 0) {
            return meta;
        }
        return new CachedMetaStore(meta, entries, options.get(MetadataCacheOptions.EXPIRE),
                options.get(MetadataCacheOptions.NEGATIVE_EXPIRE), Ticker.systemTicker());
    }

    static void bind(MetaStore meta, URI source, String metaUrl) throws IOException {
        Optional<String> bound = meta.getSetting(UFS_URI_SETTING);
        if (bound.isEmpty()) {
            meta.putSetting(UFS_URI_SETTING, source.toString());
        } else if (!bound.get().equals(source.toString())) {
            throw new IOException(String.format("metastore %s belongs to %s, not %s; give this source its own"
                    + " metastore with -o meta=...", metaUrl, bound.get(), source));
        }
    }

    /**
     * Pays a fresh process's one-time costs on the metadata path before a user's first request
     * would: reads the metastore's file ahead ({@link MetaStore#prefetch}) and runs the path's
     * reads once on the volume's own reserved directory (a lookup, its inode, a page of it with
     * inodes), which prepares their statements, loads and initializes their classes and makes
     * their meters. On a mount that had just started after the caches were dropped, the first
     * lookup took 9-17 ms and the first look-ahead page of a directory 6-13 ms, against ~0.1 ms for
     * the lookups after (docs/PERFORMANCE.md). Reads only; a failure is logged and costs nothing
     * but the time it saves.
     */
    public void warmUp() {
        try {
            meta.prefetch();
            OptionalLong reserved = reservedDirectory();
            if (reserved.isPresent()) {
                long dir = reserved.getAsLong();
                meta.getInode(dir);
                meta.readdirPlus(dir, null, 1);
                // A miss, in the heap cache's look-ahead path (the opening's own lookups, which
                // found what they asked for, ran the engine's lookup already)
                meta.lookup(dir, WARM_UP_PROBE);
            }
        } catch (IOException | RuntimeException e) {
            log.debug("warm-up of metastore {} failed", metaUrl, e);
        }
    }

    /**
     * The inode number of the volume's reserved directory ({@code /.strata}), which no path
     * reaches; empty on a volume that no read-write mount has opened yet (a read-only mount makes
     * nothing).
     */
    public OptionalLong reservedDirectory() throws IOException {
        Optional<Dentry> reserved = meta.lookup(Inode.ROOT, Sessions.RESERVED);
        return reserved.isPresent() ? OptionalLong.of(reserved.get().ino()) : OptionalLong.empty();
    }

    /** A name {@link #warmUp} looks up in the reserved directory, where no one makes it. */
    private static final String WARM_UP_PROBE = "warm-up";

    /** The metastore URL, its password masked: for the mount line and logs. */
    public String metaUrl() {
        return metaUrl;
    }

    public URI source() {
        return ufs.uri();
    }

    /**
     * The volume's meters (docs/METRICS.md: {@code strata.cache.*}, {@code strata.meta.*},
     * {@code strata.ufs.*}, {@code strata.readahead.*} on S3), where frontends add their own.
     */
    public MeterRegistry meters() {
        return meters;
    }

    /**
     * Who is told of changes this client learns of behind the frontend's back (re-listings, a new
     * content version at open), so that the frontend's caches drop them.
     */
    public void setChangeListener(ChangeListener listener) {
        this.changes = requireNonNull(listener, "listener is null");
        namespace.setChangeListener(listener);
    }

    // ---- attributes -------------------------------------------------------------------------

    /** The attributes at a path (see {@link #stat}). */
    public Inode getattr(String path) throws IOException {
        return attributes(namespace.resolve(path).inode()); // stat(ino) without reading the inode twice
    }

    /**
     * The attributes of an inode; an open file's size and mtime include writes not yet flushed. A
     * file kept alive only because it is open after its last name was removed reports nlink 0.
     */
    public Inode stat(long ino) throws IOException {
        return attributes(meta.getInode(ino));
    }

    /** The attributes of an open handle's inode (see {@link #stat}). */
    public Inode fstat(long fh) throws IOException {
        return attributes(meta.getInode(handle(fh).file().ino()));
    }

    /**
     * What callers see of an inode: the open file's size and mtime, and only the user's names in
     * nlink (a keep-alive link of this session is none of them).
     */
    private Inode attributes(Inode inode) {
        Inode seen = openFiles.get(inode.ino())
                .map(open -> inode.withSize(open.size())
                        .withTimes(inode.atimeNs(), open.mtimeNs(), Math.max(inode.ctimeNs(), open.mtimeNs())))
                .orElse(inode);
        Sessions session = sessions;
        if (session != null && session.isSustained(inode.ino())) {
            return seen.withNlink(Math.max(seen.nlink() - 1, 0));
        }
        return seen;
    }

    public Inode chmod(String path, int mode) throws IOException {
        return chmod(namespace.resolve(path).inode().ino(), mode);
    }

    /** Sets the permission bits ({@code mode & 07777}). */
    public Inode chmod(long ino, int mode) throws IOException {
        checkWritable();
        return attributes(meta.setAttr(ino, SetAttr.mode(mode & 07777, Clocks.nowNs())));
    }

    /**
     * What a write or truncate by a caller without CAP_FSETID, or any change of owner, does to a
     * file's set-ID bits (the frontend says when: the kernel decides on capabilities): set-user-ID
     * goes, and set-group-ID goes where the group may execute (without group execute it marks
     * mandatory locking, and stays). A directory keeps its bits (set-group-ID is how its new
     * entries inherit its group). Whether any bit went: a file without them costs no metastore write.
     */
    public boolean clearSetIdBits(long ino) throws IOException {
        Inode inode = meta.getInode(ino);
        if (inode.isDirectory()) {
            return false;
        }
        int mode = inode.mode();
        int cleared = mode & ~S_ISUID;
        if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP)) {
            cleared &= ~S_ISGID;
        }
        if (cleared == mode) {
            return false;
        }
        chmod(ino, cleared);
        return true;
    }

    /** Changes owner and/or group; -1 leaves one unchanged, as chown(2). */
    public Inode chown(String path, int uid, int gid) throws IOException {
        return chown(namespace.resolve(path).inode().ino(), uid, gid);
    }

    /** Changes owner and/or group; -1 leaves one unchanged, as chown(2). */
    public Inode chown(long ino, int uid, int gid) throws IOException {
        checkWritable();
        return attributes(meta.setAttr(ino, SetAttr.owner(uid < 0 ? null : uid, gid < 0 ? null : gid,
                Clocks.nowNs())));
    }

    /** Sets atime and/or mtime (see {@link #utimens(long, Long, Long)}). */
    public Inode utimens(String path, Long atimeNs, Long mtimeNs) throws IOException {
        return utimens(namespace.resolve(path).inode().ino(), atimeNs, mtimeNs);
    }

    /**
     * Sets atime and/or mtime; null leaves one unchanged. An open file's pending writes are
     * recorded first, so that its last close cannot put the write time back over these times
     * (cp -p, tar and rsync set the times on the descriptor they wrote through).
     */
    public Inode utimens(long ino, Long atimeNs, Long mtimeNs) throws IOException {
        checkWritable();
        Optional<OpenFile> open = openFiles.get(ino);
        if (open.isPresent()) {
            open.get().flush(meta);
        }
        Inode changed = meta.setAttr(ino, SetAttr.times(atimeNs, mtimeNs, Clocks.nowNs()));
        open.ifPresent(file -> file.mtimeSet(changed.mtimeNs()));
        return attributes(changed);
    }

    /** Checks access(2) bits for {@code caller}: 0 = exists, 4 = read, 2 = write, 1 = execute. */
    public void access(String path, int mask, Caller caller) throws IOException {
        access(namespace.resolve(path).inode().ino(), mask, caller);
    }

    /** Checks access(2) bits for {@code caller}: 0 = exists, 4 = read, 2 = write, 1 = execute. */
    public void access(long ino, int mask, Caller caller) throws IOException {
        Inode inode = meta.getInode(ino);
        if ((mask & 2) != 0 && readOnly) {
            throw new FsException(FsError.EROFS, "read-only mount");
        }
        if (!Permissions.allows(inode, mask, caller)) {
            throw new FsException(FsError.EACCES, "inode " + ino);
        }
    }

    // ---- directories ------------------------------------------------------------------------

    /**
     * The entry {@code name} in directory {@code parent}, merging the directory's under-storage
     * listing first, as path resolution does. ENOENT if absent, ENOTDIR if {@code parent} is not
     * a directory, ENAMETOOLONG for a name over 255 UTF-8 bytes. The reserved {@code /.strata}
     * at the root is never found.
     */
    public Inode lookup(long parent, String name) throws IOException {
        Optional<Dentry> entry = namespace.lookup(parent, name);
        if (entry.isEmpty()) {
            throw FsException.notFound(shown(namespace.childOf(parent, name)));
        }
        return attributes(meta.getInode(entry.get().ino()));
    }

    /** Streams a directory's entries, in pages, to {@code sink}. */
    public void readdir(String path, Consumer<Dentry> sink) throws IOException {
        long dir = namespace.resolve(path).inode().ino();
        String after = null;
        List<Dentry> page;
        do {
            page = readdir(dir, after, Directories.PAGE);
            page.forEach(sink);
            if (!page.isEmpty()) {
                after = page.get(page.size() - 1).name();
            }
        } while (page.size() == Directories.PAGE);
    }

    /**
     * Up to {@code limit} entries of a directory after the name {@code after} (null: from the
     * start), in name order; fewer only at the end. The listing is merged first when
     * {@code after} is null. The reserved {@code /.strata} at the root is left out. ENOTDIR for
     * a non-directory.
     */
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        return page(dir, after, limit).stream().map(DirectoryEntry::dentry).toList();
    }

    /**
     * {@link #readdir(long, String, int)} with each entry's attributes as {@link #stat} would give
     * them now: the page is read with its inodes in one engine call either way, and a listing
     * that shows attributes (READDIRPLUS) need not look each one up again.
     */
    public List<DirectoryEntry> readdirPlus(long dir, String after, int limit) throws IOException {
        List<DirectoryEntry> page = page(dir, after, limit);
        List<DirectoryEntry> seen = new ArrayList<>(page.size());
        for (DirectoryEntry entry : page) {
            Inode inode = attributes(entry.inode());
            seen.add(inode == entry.inode() ? entry : new DirectoryEntry(entry.dentry(), inode));
        }
        return seen;
    }

    /** A page of {@link #readdir(long, String, int)} with its inodes as the metastore has them. */
    private List<DirectoryEntry> page(long dir, String after, int limit) throws IOException {
        if (limit <= 0) {
            throw new FsException(FsError.EINVAL, "readdir limit must be positive: " + limit);
        }
        Inode inode = meta.getInode(dir);
        if (!inode.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "inode " + dir + " is not a directory");
        }
        if (after == null) {
            namespace.syncIfNeeded(inode);
        }
        if (dir != Inode.ROOT) {
            return meta.readdirPlus(dir, after, limit);
        }
        // One more than asked: a page that had the reserved entry taken out is still full when more follow.
        List<DirectoryEntry> page = new ArrayList<>(meta.readdirPlus(dir, after,
                limit == Integer.MAX_VALUE ? limit : limit + 1));
        page.removeIf(entry -> entry.dentry().name().equals(Sessions.RESERVED));
        return page.size() > limit ? page.subList(0, limit) : page;
    }

    public Inode mkdir(String path, int mode, Caller caller) throws IOException {
        Namespace.ParentAndName target = namespace.parentOf(path);
        return mkdir(target.parentIno(), target.name(), mode, caller);
    }

    /** Makes a directory, in the namespace and in the under storage. */
    public Inode mkdir(long parent, String name, int mode, Caller caller) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.childOf(parent, name);
        Inode created = meta.create(target.parentIno(), target.name(),
                NewInode.directory(directoryMode(target, mode & 07777), caller.uid(), groupFor(target, caller),
                        Clocks.nowNs()));
        try {
            mkdirInStorage(target.ufsPath());
        } catch (IOException | RuntimeException e) {
            undo(() -> meta.rmdir(target.parentIno(), target.name(), Clocks.nowNs()), e);
            throw e;
        }
        return created;
    }

    /**
     * Makes a directory in the under storage (a directory already there is no error). Its parent
     * is in the namespace (the metastore just took the child under it), so a parent missing from
     * the storage is one that another client made a moment ago and is still bringing the storage
     * along for (two Spark tasks making their attempt directories under one new
     * {@code _temporary}): it is made here too, then the child.
     */
    private void mkdirInStorage(String ufsPath) throws IOException {
        for (boolean parentMade = false; ; parentMade = true) {
            try {
                ufs.mkdir(ufsPath);
                return;
            } catch (FsException e) {
                int slash = ufsPath.lastIndexOf('/');
                if (e.error() != FsError.ENOENT || slash < 0 || parentMade) {
                    throw e;
                }
                mkdirInStorage(ufsPath.substring(0, slash));
            }
        }
    }

    public void rmdir(String path) throws IOException {
        Namespace.ParentAndName target = namespace.parentOf(path);
        rmdir(target.parentIno(), target.name());
    }

    /** Removes an empty directory, in the namespace and in the under storage. */
    public void rmdir(long parent, String name) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.childOf(parent, name);
        Dentry entry = namespace.entry(target).orElseThrow(() -> FsException.notFound(shown(target)));
        Inode dir = meta.getInode(entry.ino());
        if (dir.isDirectory()) {
            namespace.syncIfNeeded(dir, target.ufsPath()); // emptiness must count what the storage holds
        }
        meta.rmdir(target.parentIno(), target.name(), Clocks.nowNs());
        try {
            ufs.deleteDirectory(target.ufsPath());
        } catch (FsException e) {
            if (e.error() != FsError.ENOTEMPTY) {
                throw e;
            }
            log.warn("removed /{} from the namespace, but its under-storage directory still holds entries"
                    + " created there since it was listed; they reappear on the next listing", target.ufsPath());
        }
    }

    // ---- names ------------------------------------------------------------------------------

    /** Creates a non-directory node: a regular file (empty, in the under storage), FIFO, socket or device. */
    public Inode mknod(String path, int stMode, long rdev, Caller caller) throws IOException {
        Namespace.ParentAndName target = namespace.parentOf(path);
        return mknod(target.parentIno(), target.name(), stMode, rdev, caller);
    }

    /** Creates a non-directory node: a regular file (empty, in the under storage), FIFO, socket or device. */
    public Inode mknod(long parent, String name, int stMode, long rdev, Caller caller) throws IOException {
        checkWritable();
        InodeType type = InodeType.fromMode(stMode);
        if (type == InodeType.DIRECTORY || type == InodeType.SYMLINK) {
            throw new FsException(FsError.EINVAL, "mknod cannot make a " + type);
        }
        Namespace.ParentAndName target = namespace.childOf(parent, name);
        long now = Clocks.nowNs();
        Inode created = meta.create(target.parentIno(), target.name(),
                new NewInode(type, stMode & 07777, caller.uid(), groupFor(target, caller), rdev, 0, now, now, null, null));
        if (type == InodeType.FILE) {
            try (UfsFile ignored = ufs.create(target.ufsPath())) {
                return created;
            } catch (IOException | RuntimeException e) {
                undo(() -> meta.unlink(target.parentIno(), target.name(), Clocks.nowNs()), e);
                throw e;
            }
        }
        return created;
    }

    /**
     * The group of a new inode: its directory's where that directory is set-group-ID, so that
     * everything made in a shared directory stays in its group, else the caller's (Linux's
     * inode_init_owner; the kernel has already stripped the bit from a new file's mode where the
     * caller may not keep it).
     */
    private static int groupFor(Namespace.ParentAndName target, Caller caller) {
        return inSetGroupIdDirectory(target) ? target.parent().gid() : caller.gid();
    }

    /** A new directory's mode: set-group-ID, as its directory is, so the group keeps passing down. */
    private static int directoryMode(Namespace.ParentAndName target, int mode) {
        return inSetGroupIdDirectory(target) ? mode | S_ISGID : mode;
    }

    private static boolean inSetGroupIdDirectory(Namespace.ParentAndName target) {
        return (target.parent().mode() & S_ISGID) != 0;
    }

    public Inode symlink(String target, String linkPath, Caller caller) throws IOException {
        Namespace.ParentAndName link = namespace.parentOf(linkPath);
        return symlink(link.parentIno(), link.name(), target, caller);
    }

    /** Creates the symlink {@code name} in {@code parent}, pointing at {@code target}; metastore only. */
    public Inode symlink(long parent, String name, String target, Caller caller) throws IOException {
        checkWritable();
        Namespace.ParentAndName link = namespace.childOf(parent, name);
        return meta.create(link.parentIno(), link.name(),
                NewInode.symlink(target, caller.uid(), groupFor(link, caller), Clocks.nowNs()));
    }

    public String readlink(String path) throws IOException {
        return readlink(namespace.resolve(path).inode().ino());
    }

    /** A symlink's target. EINVAL for any other inode. */
    public String readlink(long ino) throws IOException {
        return meta.readlink(ino);
    }

    /** Adds {@code newPath} as another name of the file at {@code existingPath}. */
    public Inode link(String existingPath, String newPath) throws IOException {
        long existing = namespace.resolve(existingPath).inode().ino();
        Namespace.ParentAndName target = namespace.parentOf(newPath);
        return link(existing, target.parentIno(), target.name());
    }

    /** Adds {@code newName} in {@code newParent} as another name of {@code ino}; returns it with its new nlink. */
    public Inode link(long ino, long newParent, String newName) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.childOf(newParent, newName);
        return attributes(meta.link(ino, target.parentIno(), target.name(), Clocks.nowNs()));
    }

    public void unlink(String path) throws IOException {
        Namespace.ParentAndName target = namespace.parentOf(path);
        unlink(target.parentIno(), target.name());
    }

    /**
     * unlink(2). If this client holds the file open and this was its last name, the file stays
     * readable and writable through its handles until the last release (the session keeps it),
     * and {@link #stat}/{@link #fstat} report nlink 0 meanwhile.
     */
    public void unlink(long parent, String name) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.childOf(parent, name);
        Dentry entry = namespace.entry(target).orElseThrow(() -> FsException.notFound(shown(target)));
        try (OpenHold hold = holdIfOpen(entry.ino())) {
            keepIfOpenAndLastName(hold, entry);
            RemovedLink removed = meta.unlink(target.parentIno(), target.name(), Clocks.nowNs());
            followRemoval(removed, target.ufsPath());
        }
    }

    /**
     * Before a name goes that is the last one of a file this client holds open: the session keeps
     * the inode, so its removal moves the data out of the user's directory instead of deleting it,
     * and the last release deletes it (see {@link Sessions}).
     */
    private void keepIfOpenAndLastName(OpenHold hold, Dentry entry) throws IOException {
        Sessions session = sessions;
        if (session == null || entry.type() != InodeType.FILE || !hold.open()) {
            return;
        }
        if (meta.getInode(entry.ino()).nlink() == 1) {
            session.sustain(entry.ino());
        }
    }

    /**
     * Holds the inode's open file, if this client has one, while a name of it goes. The kernel
     * sends RELEASE after close(2) has returned, so an rm right after a close meets the last
     * release on another worker: held, that release is not the last, and the session never keeps
     * an inode whose last release has passed, nor does a last release look for a keep-alive link
     * not made yet; a last close already under way ends first, as its flush records the inode.
     * Closing the hold lets go, and is the last release when the handles went meanwhile.
     */
    private OpenHold holdIfOpen(long ino) throws IOException {
        return new OpenHold(openFiles.hold(ino).orElse(null));
    }

    /** An open file held by a name's removal ({@link #holdIfOpen}); {@code file} is null when none was open. */
    private final class OpenHold implements AutoCloseable {
        private final OpenFile file;

        private OpenHold(OpenFile file) {
            this.file = file;
        }

        boolean open() {
            return file != null;
        }

        @Override
        public void close() throws IOException {
            if (file != null) {
                letGo(file);
            }
        }
    }

    /** rename(2): replaces an existing target; files, directories, symlinks and links alike. */
    public void rename(String from, String to) throws IOException {
        Namespace.ParentAndName src = namespace.parentOf(from);
        Namespace.ParentAndName dst = namespace.parentOf(to);
        if (hideOpenFile(src, dst)) {
            return;
        }
        rename(src.parentIno(), src.name(), dst.parentIno(), dst.name(), 0);
    }

    /**
     * rename(2) and renameat2(2). {@code flags}: 0, or {@link #RENAME_NOREPLACE} (EEXIST if the
     * target exists); {@link #RENAME_EXCHANGE} is not supported (EINVAL), nor is any other flag.
     * A replaced target that was the last name of a file open here stays readable and writable
     * through its handles, as with {@link #unlink(long, String)}.
     *
     * <p>NOREPLACE is checked before the rename, not with it: the metastores have no
     * rename-if-absent, so a name another client makes in between is replaced.
     */
    public void rename(long parent, String name, long newParent, String newName, int flags) throws IOException {
        if ((flags & RENAME_EXCHANGE) != 0) {
            throw new FsException(FsError.EINVAL, "RENAME_EXCHANGE is not supported");
        }
        if ((flags & ~RENAME_NOREPLACE) != 0) {
            throw new FsException(FsError.EINVAL, "unknown rename flags: " + flags);
        }
        checkWritable();
        Namespace.ParentAndName src = namespace.childOf(parent, name);
        Namespace.ParentAndName dst = namespace.childOf(newParent, newName);
        Dentry moved = namespace.entry(src).orElseThrow(() -> FsException.notFound(shown(src)));
        Optional<Dentry> replaced = namespace.entry(dst);
        if (replaced.isPresent()) {
            if ((flags & RENAME_NOREPLACE) != 0) {
                throw FsException.exists(shown(dst));
            }
            if (replaced.get().ino() == moved.ino()) {
                return; // rename(2) between two links of one file does nothing
            }
        }
        openFiles.awaitClosed(moved.ino());
        try (OpenHold hold = replaced.isPresent() ? holdIfOpen(replaced.get().ino()) : new OpenHold(null)) {
            if (replaced.isPresent()) {
                keepIfOpenAndLastName(hold, replaced.get());
            }
            Renamed renamed = meta.rename(src.parentIno(), src.name(), dst.parentIno(), dst.name(), Clocks.nowNs());
            if (renamed.replaced().isPresent()) {
                followRemoval(renamed.replaced().get(), dst.ufsPath());
            }
            if (renamed.wasPrimary() && renamed.moved().type().inUnderStorage()) {
                ufs.rename(src.ufsPath(), dst.ufsPath());
            }
        }
    }

    /**
     * libfuse's way of unlinking a file that is open: a rename to {@code .fuse_hidden*}, unlinked
     * at the last close. For the last name of a file this client holds open, the session keeps the
     * inode instead, so its data leaves the user's directory in the under storage and a dead client
     * leaves nothing behind; the hidden name lives in the namespace only. Returns whether it did.
     */
    private boolean hideOpenFile(Namespace.ParentAndName src, Namespace.ParentAndName hidden) throws IOException {
        Sessions session = sessions;
        if (session == null || !hidden.name().startsWith(LIBFUSE_HIDDEN_PREFIX)) {
            return false;
        }
        Optional<Dentry> entry = meta.lookup(src.parentIno(), src.name());
        if (entry.isEmpty() || entry.get().type() != InodeType.FILE) {
            return false;
        }
        long ino = entry.get().ino();
        try (OpenHold hold = holdIfOpen(ino)) {
            if (!hold.open() || meta.getInode(ino).nlink() != 1) {
                return false;
            }
            session.sustain(ino, hidden.parentIno(), hidden.name());
            followRemoval(meta.unlink(src.parentIno(), src.name(), Clocks.nowNs()), src.ufsPath());
            meta.link(ino, hidden.parentIno(), hidden.name(), Clocks.nowNs());
            return true;
        }
    }

    /** Brings the under storage along after a name was removed from the namespace. */
    private void followRemoval(RemovedLink removed, String removedPath) throws IOException {
        Inode inode = removed.inode();
        if (removed.deleted() && inode.isFile()) {
            ufs.deleteFile(removedPath);
        } else if (removed.deleted() && inode.isDirectory()) {
            ufs.deleteDirectory(removedPath);
        } else if (removed.dataMustMove()) {
            ufs.rename(removedPath, namespace.dataPath(inode));
        }
    }

    // ---- file data --------------------------------------------------------------------------

    /** A file made and opened by {@link #create(long, String, int, int, Caller)}: its inode and handle. */
    public record Created(Inode inode, long fh) {}

    /** Creates and opens a new regular file for reading and writing; returns the handle. */
    public long create(String path, int mode, Caller caller) throws IOException {
        Namespace.ParentAndName target = namespace.parentOf(path);
        return create(target.parentIno(), target.name(), mode, O_RDWR, caller).fh();
    }

    /**
     * Creates and opens a regular file. {@code flags} are open(2)'s: the access mode decides
     * whether the handle may write. The name must be new (EEXIST otherwise), as with O_EXCL.
     */
    public Created create(long parent, String name, int mode, int flags, Caller caller) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.childOf(parent, name);
        Inode created = meta.create(target.parentIno(), target.name(),
                NewInode.file(mode & 07777, caller.uid(), groupFor(target, caller), Clocks.nowNs()));
        UfsFile data;
        try {
            data = ufs.create(target.ufsPath());
        } catch (IOException | RuntimeException e) {
            undo(() -> meta.unlink(target.parentIno(), target.name(), Clocks.nowNs()), e);
            throw e;
        }
        return new Created(created, register(openFiles.acquireCreated(created, data), writes(flags), false));
    }

    /** Opens an existing file; {@code flags} are open(2)'s (see {@link #open(long, int)}). */
    public long open(String path, int flags) throws IOException {
        return open(namespace.resolve(path).inode().ino(), flags);
    }

    /**
     * Opens an existing file; returns the handle. {@code flags} are open(2)'s: the access mode
     * decides whether the handle may write, and O_TRUNC truncates the file to 0 as part of the open
     * (the kernel's FUSE_ATOMIC_O_TRUNC), whatever the access mode: Linux truncates on
     * {@code O_RDONLY | O_TRUNC} too, and with atomic O_TRUNC the kernel takes the file to be empty
     * once this returns. ETXTBSY for an O_TRUNC open of a file a running program was started from
     * ({@link #FMODE_EXEC}), EISDIR for a directory.
     */
    public long open(long ino, int flags) throws IOException {
        boolean writable = writes(flags);
        boolean truncates = (flags & O_TRUNC) != 0;
        if (writable || truncates) {
            checkWritable();
        }
        if (truncates && executing.containsKey(ino)) {
            // The kernel checks "text file busy" for a write open before it asks us, but for an
            // O_RDONLY | O_TRUNC open only after this open has truncated: the program would lose
            // its own code (a SIGBUS at its next page fault) and the open would fail anyway.
            throw new FsException(FsError.ETXTBSY, "inode " + ino + " is the file of a running program");
        }
        if (truncates && !writable) {
            truncate(ino, 0); // as truncate(2) would: no handle here may write
        }
        Inode inode = meta.getInode(ino);
        if (inode.isDirectory()) {
            throw new FsException(FsError.EISDIR, "inode " + ino + " is a directory");
        }
        if (!inode.isFile()) {
            throw new FsException(FsError.ENOTSUP, "only regular files hold data here: inode " + ino);
        }
        OpenFile file;
        try {
            file = openFiles.acquire(inode, namespace.dataPath(inode), writable);
        } catch (FsException e) {
            if (e.error() == FsError.ENOENT) {
                removeVanished(ino); // the data is gone from the storage (a local source's file)
            }
            throw e;
        }
        if (!writable) {
            directoryReadahead.opened(inode);
        }
        String opened = file.cacheVersion();
        if (opened != null && inode.ufsVersion() != null && !opened.equals(inode.ufsVersion())) {
            changes.contentChanged(ino); // replaced behind our back: what the frontend cached is stale
        }
        if (writable && (flags & O_TRUNC) != 0) {
            try {
                // Not flushed here: on S3 a flush uploads, and the writes that follow an O_TRUNC can
                // then no longer stream a new object. The handle's flush or release records it.
                file.truncate(0, Clocks.nowNs());
            } catch (IOException | RuntimeException e) {
                undo(() -> letGo(file), e);
                throw e;
            }
        }
        return register(file, writable, (flags & FMODE_EXEC) != 0);
    }

    /** Whether an open with these open(2) flags may write: what {@link #open} gives a writable handle. */
    public static boolean writes(int flags) {
        return (flags & O_ACCMODE) != 0;
    }

    private long register(OpenFile file, boolean writable, boolean executes) {
        long fh = nextHandle.getAndIncrement();
        if (executes) {
            executing.merge(file.ino(), 1, Integer::sum);
        }
        handles.put(fh, new FileHandle(file, writable, executes));
        return fh;
    }

    /** Reads into {@code dst} at {@code offset}; returns the bytes read (0 at end of file). */
    public int read(long fh, ByteBuffer dst, long offset) throws IOException {
        return handle(fh).file().read(dst, offset, storageChanges);
    }

    /**
     * As {@link #read(long, ByteBuffer, long)}; {@code sink} may take bytes fetched into lent memory
     * (a readahead part in the S3 client's pool) instead of a copy of them, for a transport that
     * writes its reply from where they are.
     */
    public int read(long fh, ByteBuffer dst, long offset, LentBytesSink sink) throws IOException {
        return handle(fh).file().read(dst, offset, storageChanges, sink);
    }

    /**
     * Up to {@code length} bytes at {@code offset} as regions of cached page files, lent until
     * closed, when the page cache holds all of them on disk now; null when they must be read with
     * {@link #read(long, ByteBuffer, long)}. For a transport that splices file bytes to the kernel.
     */
    public PageRegions readRegions(long fh, long offset, int length) throws IOException {
        return handle(fh).file().regions(offset, length);
    }

    /** What open files find changed in the under storage behind the mount. */
    private final class StorageChangesFound implements OpenFile.StorageChanges {
        /**
         * A file opened from the metastore's record was found another version in the under storage
         * (replaced by another tool): record what is there now, and drop what the frontend cached.
         */
        @Override
        public void changed(long ino, UfsStatus now) throws IOException {
            log.info("inode {} changed in the under storage since it was recorded: now {} bytes, version {}", ino,
                    now.size(), now.version());
            meta.setAttr(ino, SetAttr.content(now.size(), now.mtimeNs(), now.version()));
            changes.contentChanged(ino);
        }

        /** A read found the file's data gone: its name goes at the file's last release. */
        @Override
        public void vanished(long ino) {
            vanished.add(ino);
        }
    }

    public void write(long fh, ByteBuffer src, long offset) throws IOException {
        FileHandle handle = handle(fh);
        if (!handle.writable()) {
            throw new FsException(FsError.EBADF, "handle opened read-only");
        }
        if (offset > MAX_FILE_SIZE - src.remaining()) {
            throw new FsException(FsError.EFBIG, "a file ends at " + MAX_FILE_SIZE + " bytes here");
        }
        handle.file().write(src, offset, Clocks.nowNs());
    }

    /** Called at each close(2) of a descriptor: records size and mtime in the metastore. */
    public void flush(long fh) throws IOException {
        handle(fh).file().flush(meta);
    }

    public void fsync(long fh) throws IOException {
        handle(fh).file().fsync(meta);
    }

    /** The last close of a handle. */
    public void release(long fh) throws IOException {
        FileHandle handle = handles.remove(fh);
        if (handle == null) {
            throw new FsException(FsError.EBADF, "no open handle " + fh);
        }
        long ino = handle.file().ino();
        if (handle.executes()) {
            executing.computeIfPresent(ino, (k, n) -> n == 1 ? null : n - 1);
        }
        letGo(handle.file());
    }

    /**
     * Drops a reference to an open file (a handle's, a name removal's hold, a truncate's). The last
     * one ends what the session kept of it, and removes the name of a file found gone from the storage.
     */
    private void letGo(OpenFile file) throws IOException {
        if (!openFiles.release(file)) {
            return;
        }
        long ino = file.ino();
        if (sessions != null) {
            Optional<Sessions.Removal> kept = sessions.release(ino);
            if (kept.isPresent()) {
                followRemoval(kept.get().link(), kept.get().ufsPath());
            }
        }
        if (vanished.remove(ino)) {
            removeVanished(ino);
        }
    }

    /**
     * Removes the name of a file whose data is gone from the storage ({@link Namespace#removeVanished}).
     * Tidying, not the caller's operation: a failure is logged, and the caller's answer stands.
     */
    private void removeVanished(long ino) {
        try {
            namespace.removeVanished(ino);
        } catch (IOException | RuntimeException e) {
            log.warn("inode {} is gone from the under storage, but its name could not be removed: {}", ino,
                    e.toString());
        }
    }

    /** truncate(2) on a path (see {@link #truncate(long, long)}). */
    public void truncate(String path, long size) throws IOException {
        truncate(namespace.resolve(path).inode().ino(), size);
    }

    /**
     * truncate(2): through the open file if there is one, else directly. EFBIG beyond
     * {@link #MAX_FILE_SIZE}, EISDIR for a directory, EINVAL for any other non-file.
     */
    public void truncate(long ino, long size) throws IOException {
        checkWritable();
        checkSize(size);
        Inode inode = meta.getInode(ino);
        if (inode.isDirectory()) {
            throw new FsException(FsError.EISDIR, "inode " + ino + " is a directory");
        }
        if (!inode.isFile()) {
            throw new FsException(FsError.EINVAL, "only regular files can be truncated: inode " + ino);
        }
        OpenFile file = openFiles.acquire(inode, namespace.dataPath(inode), true);
        try {
            file.truncate(size, Clocks.nowNs());
            file.flush(meta);
        } finally {
            letGo(file); // the last reference when the handles went meanwhile
        }
    }

    public void ftruncate(long fh, long size) throws IOException {
        checkSize(size);
        FileHandle handle = handle(fh);
        if (!handle.writable()) {
            throw new FsException(FsError.EBADF, "handle opened read-only");
        }
        handle.file().truncate(size, Clocks.nowNs());
    }

    /**
     * fallocate(2) without special modes: space is the under storage's to manage, so allocating
     * means the size covers {@code [offset, offset + length)} unless {@code keepSize}; past the end
     * of a file on storage that cannot reserve space (S3: {@link UnderFileSystem#preallocates()})
     * it is EOPNOTSUPP, and the caller writes instead.
     */
    public void fallocate(long fh, long offset, long length, boolean keepSize) throws IOException {
        if (offset < 0 || length <= 0) {
            throw new FsException(FsError.EINVAL, "fallocate of " + length + " bytes at " + offset);
        }
        FileHandle handle = handle(fh);
        if (!handle.writable()) {
            throw new FsException(FsError.EBADF, "handle opened read-only");
        }
        long end = offset + length;
        if (keepSize || end <= handle.file().size()) {
            return;
        }
        if (!ufs.preallocates()) {
            throw new FsException(FsError.ENOTSUP, "fallocate past the end: " + ufs.uri().getScheme()
                    + " storage has no space to reserve; write the bytes instead");
        }
        ftruncate(fh, end);
    }

    private static void checkSize(long size) throws FsException {
        if (size < 0) {
            throw new FsException(FsError.EINVAL, "negative size " + size);
        }
        if (size > MAX_FILE_SIZE) {
            throw new FsException(FsError.EFBIG, size + " bytes is more than a file here can hold ("
                    + MAX_FILE_SIZE + ")");
        }
    }

    // ---- extended attributes ----------------------------------------------------------------

    public Optional<byte[]> getxattr(String path, String name) throws IOException {
        return getxattr(namespace.resolve(path).inode().ino(), name);
    }

    /**
     * An extended attribute's value, or empty; {@link #CACHED_XATTR} and {@link #INFO_XATTR} are
     * computed. POSIX ACLs and the {@code security.} namespace are not supported (ENOTSUP).
     */
    public Optional<byte[]> getxattr(long ino, String name) throws IOException {
        if (isUnsupportedXattr(name)) {
            meta.getInode(ino); // ENOENT for a missing inode, as for any other name
            throw unsupportedXattr(name);
        }
        if (name.equals(CACHED_XATTR)) {
            return Optional.of(cachedReport(meta.getInode(ino)).getBytes(StandardCharsets.US_ASCII));
        }
        if (name.equals(INFO_XATTR)) {
            return Optional.of(info(meta.getInode(ino)).toJson());
        }
        return meta.getXattr(ino, name);
    }

    /** What {@link #INFO_XATTR} reports; the cached pages are those of the version a read would get now. */
    private InodeInfo info(Inode stored) throws IOException {
        Inode inode = attributes(stored);
        String dataPath = namespace.dataPath(inode);
        Optional<OpenFile> open = inode.isFile() ? openFiles.get(inode.ino()) : Optional.empty();
        String openVersion = open.map(OpenFile::cacheVersion).orElse(null);
        Map<String, Long> cachedPages = Map.of();
        if (inode.isFile()) {
            String version = open.isPresent() ? openVersion
                    : ufs.status(dataPath).map(status -> status.version()).orElse(null);
            cachedPages = dataCache.cachedPagesByTier(inode.ino(), version, inode.size());
        }
        return new InodeInfo(inode, ufs.uri().toString(), dataPath, openVersion, dataCache.pageSize(), cachedPages);
    }

    /** {@code "<cached bytes> <size>"}: how much of the file's current content is in the page cache. */
    private String cachedReport(Inode stored) throws IOException {
        Inode inode = attributes(stored);
        if (!inode.isFile()) {
            return "0 0";
        }
        Optional<OpenFile> open = openFiles.get(inode.ino());
        String version = open.isPresent() ? open.get().cacheVersion()
                : ufs.status(namespace.dataPath(inode)).map(status -> status.version()).orElse(null);
        return dataCache.cachedBytes(inode.ino(), version, inode.size()) + " " + inode.size();
    }

    public void setxattr(String path, String name, byte[] value, XattrMode mode) throws IOException {
        setxattr(namespace.resolve(path).inode().ino(), name, value, mode);
    }

    /** Sets an extended attribute; {@link #CACHED_XATTR} and {@link #INFO_XATTR} cannot be set (EPERM). */
    public void setxattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        if (name.equals(CACHED_XATTR) || name.equals(INFO_XATTR)) {
            throw new FsException(FsError.EPERM, name + " is computed by Strata and cannot be set");
        }
        if (isUnsupportedXattr(name)) {
            throw unsupportedXattr(name);
        }
        checkWritable();
        meta.setXattr(ino, name, value, mode);
    }

    /**
     * POSIX ACLs and security labels are names the kernel would enforce, but no frontend asks it to
     * (FUSE_POSIX_ACL; FUSE has no way to hand back a label): a stored one would be silently
     * ignored. ENOTSUP says so: cp -p, tar and rsync fall back to chmod, and ls -l stops asking for
     * a file's label and ACL after the first file of the mount instead of costing two requests per
     * file.
     */
    private static boolean isUnsupportedXattr(String name) {
        return name.startsWith(POSIX_ACL_PREFIX) || name.startsWith(SECURITY_PREFIX);
    }

    private static FsException unsupportedXattr(String name) {
        return new FsException(FsError.ENOTSUP, name.startsWith(SECURITY_PREFIX)
                ? "security labels are not supported: " + name
                : "POSIX ACLs are not supported: " + name);
    }

    public List<String> listxattr(String path) throws IOException {
        return listxattr(namespace.resolve(path).inode().ino());
    }

    /**
     * The names of an inode's extended attributes, in name order; without security labels that a
     * volume may hold from before they were refused (kept in the metastore and its dumps).
     */
    public List<String> listxattr(long ino) throws IOException {
        List<String> names = meta.listXattrs(ino);
        return names.stream().anyMatch(StrataFileSystem::isUnsupportedXattr)
                ? names.stream().filter(n -> !isUnsupportedXattr(n)).toList()
                : names;
    }

    public void removexattr(String path, String name) throws IOException {
        removexattr(namespace.resolve(path).inode().ino(), name);
    }

    /** Removes an extended attribute; ENODATA if it is not set. */
    public void removexattr(long ino, String name) throws IOException {
        if (isUnsupportedXattr(name)) {
            throw unsupportedXattr(name);
        }
        checkWritable();
        meta.removeXattr(ino, name);
    }

    // ---- volume -----------------------------------------------------------------------------

    public FsStatistics statfs() throws IOException {
        long blockSize = 4096;
        VolumeStats stats = meta.stats();
        long inodes = stats.inodes();
        long usedBytes = stats.usedBytes();
        long maxFiles = Math.max(inodes * 2, 1L << 32);
        return ufs.capacity()
                .map(c -> new FsStatistics(blockSize, c.totalBytes() / blockSize, c.freeBytes() / blockSize,
                        c.freeBytes() / blockSize, maxFiles, maxFiles - inodes, PathNames.NAME_MAX))
                .orElseGet(() -> {
                    long total = Math.max(usedBytes * 2, 1L << 50) / blockSize; // unbounded storage
                    long free = total - usedBytes / blockSize;
                    return new FsStatistics(blockSize, total, free, free, maxFiles, maxFiles - inodes,
                            PathNames.NAME_MAX);
                });
    }

    /** Flushes every open file and closes the metastore and the under storage. */
    @Override
    public void close() throws IOException {
        if (sessionKeeper != null) {
            stopSessionKeeper();
        }
        List<IOException> failures = openFiles.closeAll();
        handles.clear();
        if (sessions != null) {
            try {
                failures.addAll(removeFromStorage(sessions.close()));
            } catch (IOException e) {
                failures.add(e);
            }
        }
        failures.forEach(e -> log.error("unmount: an open file not flushed, or what this session kept not removed", e));
        try (ufs; meta; dataCache; DirectoryReadahead fetchers = directoryReadahead) {
            if (!failures.isEmpty()) {
                throw failures.get(0);
            }
        }
    }

    // ---- helpers ----------------------------------------------------------------------------

    private FileHandle handle(long fh) throws FsException {
        FileHandle handle = handles.get(fh);
        if (handle == null) {
            throw new FsException(FsError.EBADF, "no open handle " + fh);
        }
        return handle;
    }

    /** A name for error messages: its under-storage path, which is its path in the volume. */
    private static String shown(Namespace.ParentAndName target) {
        return "/" + target.ufsPath();
    }

    private void checkWritable() throws FsException {
        if (readOnly) {
            throw new FsException(FsError.EROFS, "read-only mount");
        }
    }

    /** Rolls back a namespace change whose storage half failed, keeping the first failure. */
    private static void undo(IoAction action, Exception cause) {
        try {
            action.run();
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }

    /**
     * An open descriptor's view: the shared open file, whether it may write, and whether execve(2)
     * opened it ({@link #FMODE_EXEC}), so that a running program holds it.
     */
    private record FileHandle(OpenFile file, boolean writable, boolean executes) {}
}
