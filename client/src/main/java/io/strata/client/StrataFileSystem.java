package io.strata.client;

import com.github.benmanes.caffeine.cache.Ticker;
import io.strata.client.metacache.CachedMetaStore;
import io.strata.client.metacache.MetadataCacheOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.strata.core.cache.PageCache;
import io.strata.core.cache.PageStoreConfig;
import io.strata.core.cache.CacheOptions;
import io.strata.core.conf.Options;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.XattrMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
 * <p>Frontends (FUSE, Hadoop) call this with absolute paths; it resolves them through
 * {@link Namespace}, keeps one {@link OpenFile} per open inode, and brings the under storage along
 * after each namespace change (a file's data lives at its primary link's path). Metadata-only
 * operations (chmod, chown, utimens, xattrs, symlinks, hard links) touch only the metastore.
 * Every method is safe to call from many threads.
 */
public final class StrataFileSystem implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StrataFileSystem.class);

    /** The volume setting that binds a metastore to one under storage. */
    static final String UFS_URI_SETTING = "ufs_uri";
    /** The volume setting naming this namespace in page-cache keys (see {@link DataCache}). */
    static final String VOLUME_ID_SETTING = "volume_id";
    /**
     * A virtual extended attribute: {@code "<cached bytes> <size>"} of a file in the page cache.
     * Read by {@code strata warmup --check}; never listed, stored or settable.
     */
    public static final String CACHED_XATTR = "user.strata.cached";
    private static final int O_ACCMODE = 3;
    /** The names libfuse2 gives files it hides when they are unlinked while open. */
    private static final String LIBFUSE_HIDDEN_PREFIX = ".fuse_hidden";

    private final MetaStore meta;
    private final UnderFileSystem ufs;
    private final String metaUrl;
    private final boolean readOnly;
    private final Namespace namespace;
    private final OpenFiles openFiles;
    private final DataCache dataCache;
    private final MeterRegistry meters;
    private final ConcurrentMap<Long, FileHandle> handles = new ConcurrentHashMap<>();
    private final AtomicLong nextHandle = new AtomicLong(1);
    /** This client's session; null for a read-only mount, which never keeps an unlinked file. */
    private volatile Sessions sessions;
    private ScheduledExecutorService sessionKeeper;

    StrataFileSystem(MetaStore meta, UnderFileSystem ufs, String metaUrl, boolean readOnly, DataCache dataCache,
                     MeterRegistry meters) {
        this(meta, ufs, metaUrl, readOnly, dataCache, meters, null);
    }

    /** {@code syncInterval}: metadata_sync_interval, null to list each directory once. */
    StrataFileSystem(MetaStore meta, UnderFileSystem ufs, String metaUrl, boolean readOnly, DataCache dataCache,
                     MeterRegistry meters, Duration syncInterval) {
        this.meta = requireNonNull(meta, "meta is null");
        this.ufs = requireNonNull(ufs, "ufs is null");
        // Only ever shown (mount line, logs, errors): never with its password.
        this.metaUrl = MetaStores.redact(requireNonNull(metaUrl, "metaUrl is null"));
        this.readOnly = readOnly;
        this.dataCache = requireNonNull(dataCache, "dataCache is null");
        this.meters = requireNonNull(meters, "meters is null");
        this.openFiles = new OpenFiles(ufs, meta, dataCache);
        this.namespace = new Namespace(meta, ufs, syncInterval, ino -> openFiles.get(ino).isPresent());
    }

    /**
     * Opens the volume over {@code source}: its under storage and its metastore ({@code meta}, or
     * by default an SQLite file under {@code state_dir}). A metastore already bound to another
     * source is refused, so two directories never share one namespace by accident.
     */
    public static StrataFileSystem open(URI source, Options options) throws IOException {
        UnderFileSystem ufs = UnderFileSystems.open(source, options);
        // The UFS's own URI is normalized (no trailing slash), so one source has one default metastore.
        String metaUrl = Optional.ofNullable(options.get(VolumeOptions.META))
                .orElseGet(() -> Volumes.defaultMetaUrl(Path.of(options.get(VolumeOptions.STATE_DIR)), ufs.uri()));
        MetaStore meta;
        try {
            meta = MetaStores.open(metaUrl);
        } catch (IOException | RuntimeException e) {
            ufs.close();
            throw e;
        }
        MeterRegistry meters = new SimpleMeterRegistry();
        DataCache dataCache;
        try {
            bind(meta, ufs.uri(), MetaStores.redact(metaUrl));
            ufs.bindMetrics(meters);
            dataCache = openDataCache(meta, options, ufs.uri(), meters);
        } catch (IOException | RuntimeException e) {
            try (ufs; meta) {
                throw e;
            }
        }
        StrataFileSystem fs = new StrataFileSystem(withHeapCache(meta, options), ufs, metaUrl,
                options.get(VolumeOptions.READ_ONLY), dataCache, meters,
                options.get(VolumeOptions.METADATA_SYNC_INTERVAL));
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
        sessionKeeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "strata-session-" + sessions.id());
            thread.setDaemon(true);
            return thread;
        });
        long periodMs = Math.max(expire.toMillis() / 4, 100);
        sessionKeeper.scheduleWithFixedDelay(this::keepSessionAlive, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    private void keepSessionAlive() {
        try {
            sessions.heartbeat();
            for (Sessions.Removal removal : sessions.sweep()) {
                followRemoval(removal.link(), removal.ufsPath());
            }
        } catch (IOException | RuntimeException e) {
            log.warn("session heartbeat or sweep failed (retried at the next beat): {}", e.toString());
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
    private static String volumeId(MetaStore meta) throws IOException {
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

    private static void bind(MetaStore meta, URI source, String metaUrl) throws IOException {
        Optional<String> bound = meta.getSetting(UFS_URI_SETTING);
        if (bound.isEmpty()) {
            meta.putSetting(UFS_URI_SETTING, source.toString());
        } else if (!bound.get().equals(source.toString())) {
            throw new IOException(String.format("metastore %s belongs to %s, not %s; give this source its own"
                    + " metastore with -o meta=...", metaUrl, bound.get(), source));
        }
    }

    /** The metastore URL, its password masked: for the mount line and logs. */
    public String metaUrl() {
        return metaUrl;
    }

    public URI source() {
        return ufs.uri();
    }

    /**
     * The volume's meters ({@code strata.cache.*}, and the under storage's: {@code strata.readahead.*}
     * on S3), for frontends and tests.
     */
    public MeterRegistry meters() {
        return meters;
    }

    // ---- attributes -------------------------------------------------------------------------

    /** The attributes at a path; an open file's size and mtime include writes not yet flushed. */
    public Inode getattr(String path) throws IOException {
        return withOpenState(namespace.resolve(path).inode());
    }

    /** The attributes of an open handle's inode. */
    public Inode getattr(long fh) throws IOException {
        return withOpenState(meta.getInode(handle(fh).file().ino()));
    }

    private Inode withOpenState(Inode inode) {
        return openFiles.get(inode.ino())
                .map(open -> inode.withSize(open.size())
                        .withTimes(inode.atimeNs(), open.mtimeNs(), Math.max(inode.ctimeNs(), open.mtimeNs())))
                .orElse(inode);
    }

    public Inode chmod(String path, int mode) throws IOException {
        checkWritable();
        return meta.setAttr(namespace.resolve(path).inode().ino(), SetAttr.mode(mode & 07777, Clocks.nowNs()));
    }

    /** Changes owner and/or group; -1 leaves one unchanged, as chown(2). */
    public Inode chown(String path, int uid, int gid) throws IOException {
        checkWritable();
        return meta.setAttr(namespace.resolve(path).inode().ino(),
                SetAttr.owner(uid < 0 ? null : uid, gid < 0 ? null : gid, Clocks.nowNs()));
    }

    /**
     * Sets atime and/or mtime; null leaves one unchanged. An open file's pending writes are
     * recorded first, so that its last close cannot put the write time back over these times
     * (cp -p, tar and rsync set the times on the descriptor they wrote through).
     */
    public Inode utimens(String path, Long atimeNs, Long mtimeNs) throws IOException {
        checkWritable();
        long ino = namespace.resolve(path).inode().ino();
        Optional<OpenFile> open = openFiles.get(ino);
        if (open.isPresent()) {
            open.get().flush(meta);
        }
        Inode changed = meta.setAttr(ino, SetAttr.times(atimeNs, mtimeNs, Clocks.nowNs()));
        open.ifPresent(file -> file.mtimeSet(changed.mtimeNs()));
        return changed;
    }

    /** Checks access(2) bits for {@code caller}: 0 = exists, 4 = read, 2 = write, 1 = execute. */
    public void access(String path, int mask, Caller caller) throws IOException {
        Inode inode = namespace.resolve(path).inode();
        if ((mask & 2) != 0 && readOnly) {
            throw new FsException(FsError.EROFS, "read-only mount");
        }
        if (!Permissions.allows(inode, mask, caller)) {
            throw new FsException(FsError.EACCES, path);
        }
    }

    // ---- directories ------------------------------------------------------------------------

    /** Streams a directory's entries, in pages, to {@code sink}. */
    public void readdir(String path, Consumer<Dentry> sink) throws IOException {
        Namespace.Resolved dir = namespace.resolve(path);
        if (!dir.inode().isDirectory()) {
            throw new FsException(FsError.ENOTDIR, path);
        }
        namespace.syncIfNeeded(dir.inode(), dir.ufsPath());
        boolean root = dir.inode().ino() == Inode.ROOT;
        Directories.forEachEntry(meta, dir.inode().ino(), entry -> {
            if (!(root && entry.name().equals(Sessions.RESERVED))) {
                sink.accept(entry);
            }
        });
    }

    public Inode mkdir(String path, int mode, Caller caller) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.parentOf(path);
        Inode created = meta.create(target.parentIno(), target.name(),
                NewInode.directory(mode & 07777, caller.uid(), caller.gid(), Clocks.nowNs()));
        try {
            ufs.mkdir(target.ufsPath());
        } catch (IOException | RuntimeException e) {
            undo(() -> meta.rmdir(target.parentIno(), target.name(), Clocks.nowNs()), e);
            throw e;
        }
        return created;
    }

    public void rmdir(String path) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.parentOf(path);
        Namespace.Resolved dir = namespace.resolve(target.names());
        if (dir.inode().isDirectory()) {
            namespace.syncIfNeeded(dir.inode(), dir.ufsPath()); // emptiness must count what the storage holds
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
        checkWritable();
        InodeType type = InodeType.fromMode(stMode);
        if (type == InodeType.DIRECTORY || type == InodeType.SYMLINK) {
            throw new FsException(FsError.EINVAL, "mknod cannot make a " + type);
        }
        Namespace.ParentAndName target = namespace.parentOf(path);
        long now = Clocks.nowNs();
        Inode created = meta.create(target.parentIno(), target.name(),
                new NewInode(type, stMode & 07777, caller.uid(), caller.gid(), rdev, 0, now, now, null, null));
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

    public Inode symlink(String target, String linkPath, Caller caller) throws IOException {
        checkWritable();
        Namespace.ParentAndName link = namespace.parentOf(linkPath);
        return meta.create(link.parentIno(), link.name(),
                NewInode.symlink(target, caller.uid(), caller.gid(), Clocks.nowNs()));
    }

    public String readlink(String path) throws IOException {
        return meta.readlink(namespace.resolve(path).inode().ino());
    }

    /** Adds {@code newPath} as another name of the file at {@code existingPath}. */
    public Inode link(String existingPath, String newPath) throws IOException {
        checkWritable();
        Inode existing = namespace.resolve(existingPath).inode();
        Namespace.ParentAndName target = namespace.parentOf(newPath);
        return meta.link(existing.ino(), target.parentIno(), target.name(), Clocks.nowNs());
    }

    public void unlink(String path) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.parentOf(path);
        RemovedLink removed = meta.unlink(target.parentIno(), target.name(), Clocks.nowNs());
        followRemoval(removed, target.ufsPath());
    }

    /** rename(2): replaces an existing target; files, directories, symlinks and links alike. */
    public void rename(String from, String to) throws IOException {
        checkWritable();
        Namespace.ParentAndName src = namespace.parentOf(from);
        Namespace.ParentAndName dst = namespace.parentOf(to);
        if (sameInode(src, dst)) {
            return; // rename(2) between two links of one file does nothing
        }
        if (hideOpenFile(src, dst)) {
            return;
        }
        Renamed renamed = meta.rename(src.parentIno(), src.name(), dst.parentIno(), dst.name(), Clocks.nowNs());
        if (renamed.replaced().isPresent()) {
            followRemoval(renamed.replaced().get(), dst.ufsPath());
        }
        if (renamed.wasPrimary() && renamed.moved().type().inUnderStorage()) {
            ufs.rename(src.ufsPath(), dst.ufsPath());
        }
    }

    private boolean sameInode(Namespace.ParentAndName a, Namespace.ParentAndName b) throws IOException {
        Optional<Dentry> first = meta.lookup(a.parentIno(), a.name());
        Optional<Dentry> second = meta.lookup(b.parentIno(), b.name());
        return first.isPresent() && second.isPresent() && first.get().ino() == second.get().ino();
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
        if (entry.isEmpty() || entry.get().type() != InodeType.FILE || openFiles.get(entry.get().ino()).isEmpty()
                || meta.getInode(entry.get().ino()).nlink() != 1) {
            return false;
        }
        long ino = entry.get().ino();
        session.sustain(ino, hidden.parentIno(), hidden.name());
        followRemoval(meta.unlink(src.parentIno(), src.name(), Clocks.nowNs()), src.ufsPath());
        meta.link(ino, hidden.parentIno(), hidden.name(), Clocks.nowNs());
        return true;
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

    /** Creates and opens a new regular file for writing; returns the handle. */
    public long create(String path, int mode, Caller caller) throws IOException {
        checkWritable();
        Namespace.ParentAndName target = namespace.parentOf(path);
        Inode created = meta.create(target.parentIno(), target.name(),
                NewInode.file(mode & 07777, caller.uid(), caller.gid(), Clocks.nowNs()));
        UfsFile data;
        try {
            data = ufs.create(target.ufsPath());
        } catch (IOException | RuntimeException e) {
            undo(() -> meta.unlink(target.parentIno(), target.name(), Clocks.nowNs()), e);
            throw e;
        }
        return register(openFiles.acquireCreated(created, data), true);
    }

    /** Opens an existing file; {@code flags} are open(2)'s (only the access mode matters here). */
    public long open(String path, int flags) throws IOException {
        boolean writable = (flags & O_ACCMODE) != 0;
        if (writable) {
            checkWritable();
        }
        Namespace.Resolved resolved = namespace.resolve(path);
        Inode inode = resolved.inode();
        if (inode.isDirectory()) {
            throw new FsException(FsError.EISDIR, path);
        }
        if (!inode.isFile()) {
            throw new FsException(FsError.ENOTSUP, "only regular files hold data here: " + path);
        }
        return register(openFiles.acquire(inode, namespace.dataPath(resolved), writable), writable);
    }

    private long register(OpenFile file, boolean writable) {
        long fh = nextHandle.getAndIncrement();
        handles.put(fh, new FileHandle(file, writable));
        return fh;
    }

    /** Reads into {@code dst} at {@code offset}; returns the bytes read (0 at end of file). */
    public int read(long fh, ByteBuffer dst, long offset) throws IOException {
        return handle(fh).file().read(dst, offset);
    }

    public void write(long fh, ByteBuffer src, long offset) throws IOException {
        FileHandle handle = handle(fh);
        if (!handle.writable()) {
            throw new FsException(FsError.EBADF, "handle opened read-only");
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
        if (openFiles.release(handle.file()) && sessions != null) {
            Optional<Sessions.Removal> kept = sessions.release(ino);
            if (kept.isPresent()) {
                followRemoval(kept.get().link(), kept.get().ufsPath());
            }
        }
    }

    /** truncate(2) on a path: through the open file if there is one, else directly. */
    public void truncate(String path, long size) throws IOException {
        checkWritable();
        checkSize(size);
        Namespace.Resolved resolved = namespace.resolve(path);
        Inode inode = resolved.inode();
        if (inode.isDirectory()) {
            throw new FsException(FsError.EISDIR, path);
        }
        OpenFile file = openFiles.acquire(inode, namespace.dataPath(resolved), true);
        try {
            file.truncate(size, Clocks.nowNs());
            file.flush(meta);
        } finally {
            openFiles.release(file);
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

    private static void checkSize(long size) throws FsException {
        if (size < 0) {
            throw new FsException(FsError.EINVAL, "negative size " + size);
        }
    }

    // ---- extended attributes ----------------------------------------------------------------

    public Optional<byte[]> getxattr(String path, String name) throws IOException {
        if (name.equals(CACHED_XATTR)) {
            return Optional.of(cachedReport(namespace.resolve(path)).getBytes(StandardCharsets.US_ASCII));
        }
        return meta.getXattr(namespace.resolve(path).inode().ino(), name);
    }

    /** {@code "<cached bytes> <size>"}: how much of the file's current content is in the page cache. */
    private String cachedReport(Namespace.Resolved resolved) throws IOException {
        Inode inode = withOpenState(resolved.inode());
        if (!inode.isFile()) {
            return "0 0";
        }
        Optional<OpenFile> open = openFiles.get(inode.ino());
        String version = open.isPresent() ? open.get().cacheVersion()
                : ufs.status(namespace.dataPath(resolved)).map(status -> status.version()).orElse(null);
        return dataCache.cachedBytes(inode.ino(), version, inode.size()) + " " + inode.size();
    }

    public void setxattr(String path, String name, byte[] value, XattrMode mode) throws IOException {
        if (name.equals(CACHED_XATTR)) {
            throw new FsException(FsError.EPERM, name + " is computed by Strata and cannot be set");
        }
        checkWritable();
        meta.setXattr(namespace.resolve(path).inode().ino(), name, value, mode);
    }

    public List<String> listxattr(String path) throws IOException {
        return meta.listXattrs(namespace.resolve(path).inode().ino());
    }

    public void removexattr(String path, String name) throws IOException {
        checkWritable();
        meta.removeXattr(namespace.resolve(path).inode().ino(), name);
    }

    // ---- volume -----------------------------------------------------------------------------

    public FsStatistics statfs() throws IOException {
        long blockSize = 4096;
        long inodes = meta.stats().inodes();
        long usedBytes = meta.stats().usedBytes();
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
            sessionKeeper.shutdownNow();
        }
        List<IOException> failures = openFiles.closeAll();
        handles.clear();
        if (sessions != null) {
            try {
                for (Sessions.Removal removal : sessions.close()) {
                    followRemoval(removal.link(), removal.ufsPath());
                }
            } catch (IOException e) {
                failures.add(e);
            }
        }
        failures.forEach(e -> log.error("could not flush an open file at unmount", e));
        try (ufs; meta; dataCache) {
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

    /** An open descriptor's view: the shared open file and whether it may write. */
    private record FileHandle(OpenFile file, boolean writable) {}
}
