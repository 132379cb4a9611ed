package io.strata.hadoop;

import io.strata.client.Caller;
import io.strata.client.StorageCheck;
import io.strata.client.StrataFileSystem;
import io.strata.client.VolumeFormat;
import io.strata.client.VolumeOptions;
import io.strata.core.conf.OptionRegistry;
import io.strata.core.conf.Options;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.XattrMode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code strata://NAME/path}: a Strata volume as a Hadoop {@link FileSystem}, for Spark and every
 * other Hadoop client. It is the client a FUSE mount runs ({@link StrataFileSystem}: the same
 * metastore, under storage, readahead and page cache), called by path, so a file written through
 * either is read by the other.
 *
 * <p>{@code NAME} picks the volume's configuration (see {@link HadoopOptions}): its metastore
 * ({@code fs.strata.NAME.meta} or {@code fs.strata.meta}) holds the under storage it was formatted
 * with ({@code strata format}); the rest ({@code fs.strata.s3.endpoint}, the cache directories...)
 * are the mount options of this client.
 *
 * <p>Semantics are the volume's: renames are atomic for files (one metastore transaction, then the
 * object moves), directories are renamed as the metastore does; permissions and owners are the
 * metastore's, shown by name where this machine knows one, and, as with S3A, not enforced here.
 */
public class StrataHadoopFileSystem extends FileSystem implements IOStatisticsSource {
    private static final Logger log = LoggerFactory.getLogger(StrataHadoopFileSystem.class);
    public static final String SCHEME = "strata";
    /** The block size reported to the planners of input splits (as fs.s3a.block.size is). */
    static final String BLOCK_SIZE_KEY = HadoopOptions.PREFIX + "block.size";
    static final long DEFAULT_BLOCK_SIZE = 128L << 20;
    // open(2) flags, Linux's values, as the client takes them.
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_TRUNC = 01000;

    private URI uri;
    private Path workingDir;
    private StrataFileSystem volume;
    private UnixNames names;
    private Caller caller;
    private long blockSize;
    private VolumePool pool;
    private VolumeStatistics volumeStatistics;

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        String volumeName = name.getAuthority();
        if (volumeName == null || volumeName.isEmpty()) {
            throw new IOException("a strata:// URI names its volume, as strata://NAME/path: " + name);
        }
        setConf(conf);
        this.uri = URI.create(SCHEME + "://" + volumeName);
        OptionRegistry registry = OptionRegistry.load();
        for (String unknown : HadoopOptions.unknownKeys(conf, registry)) {
            log.warn("{} names no Strata option and is ignored ('strata conf' lists them)", unknown);
        }
        Options options = HadoopOptions.bind(conf, volumeName, registry, System.getenv());
        String metaUrl = options.get(VolumeOptions.META);
        if (metaUrl == null) {
            throw new IOException("no metastore for " + uri + ": set " + HadoopOptions.PREFIX + "meta (any volume) or "
                    + HadoopOptions.PREFIX + volumeName + ".meta to the URL given to 'strata format'");
        }
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        // Listings and stats come from the metastore: a job that only lists should not wait for the
        // S3 client and its bucket check (S3A does not probe its bucket at initialize either).
        this.volume = StrataFileSystem.open(VolumeFormat.source(metaUrl), options, meters, StorageCheck.AT_FIRST_USE);
        this.volumeStatistics = new VolumeStatistics(meters);
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        com.sun.security.auth.module.UnixSystem process = new com.sun.security.auth.module.UnixSystem();
        this.names = UnixNames.system((int) process.getUid(), user);
        this.caller = new Caller(names.uid(user).orElse((int) process.getUid()), (int) process.getGid());
        this.blockSize = conf.getLongBytes(BLOCK_SIZE_KEY, DEFAULT_BLOCK_SIZE);
        this.pool = VolumePool.from(conf);
        this.workingDir = getHomeDirectory();
    }

    @Override
    public URI getUri() {
        return uri;
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDir;
    }

    @Override
    public void setWorkingDirectory(Path dir) {
        workingDir = makeQualified(dir);
    }

    @Override
    public long getDefaultBlockSize(Path f) {
        return blockSize;
    }

    /** The same for callers of the old form, which would otherwise get fs.local.block.size. */
    @Override
    @SuppressWarnings("deprecation")
    public long getDefaultBlockSize() {
        return blockSize;
    }

    /** The path in the volume: {@code /a/b} for {@code strata://NAME/a/b} or {@code b} in working directory {@code /a}. */
    String pathOf(Path path) {
        Path qualified = makeQualified(path);
        checkPath(qualified);
        String text = qualified.toUri().getPath();
        return text.isEmpty() ? "/" : text;
    }

    private Path qualify(String path) {
        return new Path(uri.getScheme(), uri.getAuthority(), path);
    }

    // ---- reading ----------------------------------------------------------------------------

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        String path = pathOf(f);
        long fh;
        try {
            fh = volume.open(path, O_RDONLY);
        } catch (FsException e) {
            if (e.error() == FsError.EISDIR) {
                throw (FileNotFoundException) new FileNotFoundException(path + " is a directory").initCause(e);
            }
            throw HadoopErrors.translate(e, path);
        }
        long length = sizeOrRelease(fh, path);
        return new FSDataInputStream(new StrataInputStream(volume, fh, length, path, statistics, pool.vectoredReads()));
    }

    // ---- writing ----------------------------------------------------------------------------

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        return create(f, permission, overwrite, true);
    }

    @Override
    public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
                                                 int bufferSize, short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        return create(f, permission, flags.contains(CreateFlag.OVERWRITE), false);
    }

    private FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, boolean makeParents)
            throws IOException {
        String path = pathOf(f);
        statistics.incrementWriteOps(1);
        Optional<Inode> existing = find(path);
        long fh;
        if (existing.isPresent()) {
            if (existing.get().isDirectory()) {
                throw new FileAlreadyExistsException(path + " is a directory");
            }
            if (!overwrite) {
                throw new FileAlreadyExistsException(path + " already exists");
            }
            fh = call(path, () -> volume.open(path, O_WRONLY | O_TRUNC));
        } else {
            Path parent = qualify(path).getParent();
            if (parent != null) {
                if (makeParents) {
                    mkdirs(parent, FsPermission.getDirDefault());
                } else if (!getFileStatus(parent).isDirectory()) {
                    throw new ParentNotDirectoryException(pathOf(parent) + " is not a directory");
                }
            }
            int mode = permission(permission, FsPermission.getFileDefault());
            fh = call(path, () -> volume.create(path, mode, caller));
        }
        return new FSDataOutputStream(new StrataOutputStream(volume, fh, 0, path), statistics);
    }

    @Override
    public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
        String path = pathOf(f);
        statistics.incrementWriteOps(1);
        Inode inode = call(path, () -> volume.getattr(path));
        if (inode.isDirectory()) {
            throw new FileAlreadyExistsException(path + " is a directory");
        }
        long fh = call(path, () -> volume.open(path, O_WRONLY));
        long size = sizeOrRelease(fh, path);
        return new FSDataOutputStream(new StrataOutputStream(volume, fh, size, path), statistics, size);
    }

    @Override
    public boolean truncate(Path f, long newLength) throws IOException {
        String path = pathOf(f);
        statistics.incrementWriteOps(1);
        call(path, () -> {
            volume.truncate(path, newLength);
            return null;
        });
        return true;
    }

    // ---- names ------------------------------------------------------------------------------

    /**
     * Hadoop's rename: into an existing directory, else to the new name; false (nothing changed)
     * when the source is missing, the target exists or has no parent directory, or a directory
     * would go under itself. Never replaces a target.
     */
    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        String from = pathOf(src);
        String to = pathOf(dst);
        statistics.incrementWriteOps(1);
        Optional<Inode> source = find(from);
        if (source.isEmpty() || from.equals("/")) {
            return false;
        }
        if (from.equals(to)) {
            return !source.get().isDirectory(); // a file "moves" to itself, as HDFS says; a directory does not
        }
        if (to.startsWith(from.endsWith("/") ? from : from + "/")) {
            return false;
        }
        Optional<Inode> target = find(to);
        if (target.isPresent()) {
            if (!target.get().isDirectory()) {
                return false;
            }
            to = to.equals("/") ? "/" + name(from) : to + "/" + name(from);
            if (find(to).isPresent()) {
                return false;
            }
        } else {
            Path parent = qualify(to).getParent();
            Optional<Inode> parentInode = parent == null ? Optional.empty() : find(pathOf(parent));
            if (parentInode.isEmpty() || !parentInode.get().isDirectory()) {
                return false;
            }
        }
        String finalTo = to;
        Inode fromParent = call(from, () -> volume.getattr(parentOf(from)));
        Inode toParent = call(finalTo, () -> volume.getattr(parentOf(finalTo)));
        try {
            volume.rename(fromParent.ino(), name(from), toParent.ino(), name(finalTo), StrataFileSystem.RENAME_NOREPLACE);
        } catch (FsException e) {
            if (e.error() == FsError.EEXIST || e.error() == FsError.ENOENT) {
                return false; // another client got there between the checks and the rename
            }
            throw HadoopErrors.translate(e, from);
        }
        return true;
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        String path = pathOf(f);
        statistics.incrementWriteOps(1);
        Optional<Inode> inode = find(path);
        if (inode.isEmpty()) {
            return false;
        }
        if (!inode.get().isDirectory()) {
            call(path, () -> {
                volume.unlink(path);
                return null;
            });
            return true;
        }
        boolean empty = volume.readdir(inode.get().ino(), null, 1).isEmpty();
        if (!empty && !recursive) {
            throw new PathIsNotEmptyDirectoryException(path);
        }
        if (path.equals("/")) {
            new Trees(volume).deleteChildren("/", inode.get().ino());
            return true; // the root itself stays, as on every Hadoop file system
        }
        new Trees(volume).delete(path, inode.get().ino());
        return true;
    }

    @Override
    public boolean mkdirs(Path f, FsPermission permission) throws IOException {
        String path = pathOf(f);
        statistics.incrementWriteOps(1);
        new Trees(volume).mkdirs(path, permission(permission, FsPermission.getDirDefault()), caller);
        return true;
    }

    // ---- listing and attributes -------------------------------------------------------------

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        String path = pathOf(f);
        statistics.incrementReadOps(1);
        return status(find(path).orElseThrow(() -> new FileNotFoundException(path + ": no such file or directory")),
                qualify(path));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        List<FileStatus> all = new ArrayList<>();
        RemoteIterator<FileStatus> it = listStatusIterator(f);
        while (it.hasNext()) {
            all.add(it.next());
        }
        return all.toArray(new FileStatus[0]);
    }

    /** A directory's entries a page at a time, so a huge directory is listed in bounded memory. */
    @Override
    public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
        String path = pathOf(f);
        statistics.incrementReadOps(1);
        Inode inode = call(path, () -> volume.getattr(path));
        if (!inode.isDirectory()) {
            return new Listing.Single(status(inode, qualify(path)));
        }
        return new Listing(volume, inode.ino(), dentry -> {
            String child = path.equals("/") ? "/" + dentry.name() : path + "/" + dentry.name();
            return status(call(child, () -> volume.stat(dentry.ino())), qualify(child));
        });
    }

    @Override
    protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path f, PathFilter filter) throws IOException {
        RemoteIterator<FileStatus> statuses = listStatusIterator(f);
        return Listing.located(statuses, filter, status -> new LocatedFileStatus(status,
                status.isFile() ? getFileBlockLocations(status, 0, status.getLen()) : null));
    }

    /**
     * One location for the whole file, on no particular host: the data is in the under storage,
     * equally far from every node, and each node's page cache is its own. Split planners still cut
     * the file by {@link #getDefaultBlockSize}; the location only tells them there is no locality.
     */
    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
        if (file == null) {
            return null;
        }
        if (start < 0 || len < 0) {
            throw new IllegalArgumentException("invalid start or len: " + start + ", " + len);
        }
        if (file.getLen() <= start) {
            return new BlockLocation[0];
        }
        return new BlockLocation[] {
                new BlockLocation(new String[] {"localhost:9866"}, new String[] {"localhost"}, 0, file.getLen())};
    }

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
        String path = pathOf(p);
        statistics.incrementWriteOps(1);
        call(path, () -> volume.chmod(path, permission.toShort() & 07777));
    }

    @Override
    public void setOwner(Path p, String username, String groupname) throws IOException {
        String path = pathOf(p);
        statistics.incrementWriteOps(1);
        int uid = username == null ? -1 : names.uid(username).orElseThrow(
                () -> new IOException("unknown user " + username + " (give a name this machine knows, or a uid)"));
        int gid = groupname == null ? -1 : names.gid(groupname).orElseThrow(
                () -> new IOException("unknown group " + groupname + " (give a name this machine knows, or a gid)"));
        call(path, () -> volume.chown(path, uid, gid));
    }

    /** Times in milliseconds; -1 leaves one unchanged. */
    @Override
    public void setTimes(Path p, long mtime, long atime) throws IOException {
        String path = pathOf(p);
        statistics.incrementWriteOps(1);
        call(path, () -> volume.utimens(path, atime < 0 ? null : atime * 1_000_000, mtime < 0 ? null : mtime * 1_000_000));
    }

    // ---- extended attributes ----------------------------------------------------------------

    @Override
    public void setXAttr(Path p, String name, byte[] value, EnumSet<XAttrSetFlag> flag) throws IOException {
        String path = pathOf(p);
        boolean create = flag.contains(XAttrSetFlag.CREATE);
        boolean replace = flag.contains(XAttrSetFlag.REPLACE);
        XattrMode mode = create && !replace ? XattrMode.CREATE : replace && !create ? XattrMode.REPLACE : XattrMode.UPSERT;
        call(path, () -> {
            volume.setxattr(path, name, value == null ? new byte[0] : value, mode);
            return null;
        });
    }

    @Override
    public byte[] getXAttr(Path p, String name) throws IOException {
        String path = pathOf(p);
        return call(path, () -> volume.getxattr(path, name))
                .orElseThrow(() -> new IOException("no extended attribute " + name + " on " + path));
    }

    @Override
    public Map<String, byte[]> getXAttrs(Path p) throws IOException {
        return getXAttrs(p, listXAttrs(p));
    }

    @Override
    public Map<String, byte[]> getXAttrs(Path p, List<String> names) throws IOException {
        String path = pathOf(p);
        Map<String, byte[]> values = new LinkedHashMap<>();
        for (String name : names) {
            call(path, () -> volume.getxattr(path, name)).ifPresent(value -> values.put(name, value));
        }
        return values;
    }

    @Override
    public List<String> listXAttrs(Path p) throws IOException {
        String path = pathOf(p);
        return call(path, () -> volume.listxattr(path));
    }

    @Override
    public void removeXAttr(Path p, String name) throws IOException {
        String path = pathOf(p);
        call(path, () -> {
            volume.removexattr(path, name);
            return null;
        });
    }

    // ---- the volume -------------------------------------------------------------------------

    @Override
    public boolean hasPathCapability(Path path, String capability) throws IOException {
        switch (PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(path), capability)
                .toLowerCase(Locale.ROOT)) {
            case CommonPathCapabilities.FS_APPEND, CommonPathCapabilities.FS_PERMISSIONS,
                    CommonPathCapabilities.FS_XATTRS, CommonPathCapabilities.FS_TRUNCATE,
                    CommonPathCapabilities.VIRTUAL_BLOCK_LOCATIONS:
                return true;
            default:
                return super.hasPathCapability(path, capability);
        }
    }

    /** The volume's page cache and under-storage counters (cache hits, misses, bytes served and fetched). */
    @Override
    public IOStatistics getIOStatistics() {
        return volumeStatistics.ioStatistics();
    }

    @Override
    public void close() throws IOException {
        try {
            super.close(); // deletes the paths marked delete-on-exit, through this volume
        } finally {
            if (pool != null) {
                pool.close();
            }
            if (volume != null) {
                volume.close();
            }
        }
    }

    @Override
    public String toString() {
        return "StrataHadoopFileSystem{" + uri + ", metastore " + (volume == null ? "-" : volume.metaUrl()) + "}";
    }

    // ---- helpers ----------------------------------------------------------------------------

    private FileStatus status(Inode inode, Path path) throws IOException {
        Path symlink = inode.type() == InodeType.SYMLINK ? new Path(volume.readlink(inode.ino())) : null;
        return new FileStatus(inode.isFile() ? inode.size() : 0, inode.isDirectory(), 1, blockSize,
                inode.mtimeNs() / 1_000_000, inode.atimeNs() / 1_000_000, new FsPermission((short) (inode.mode() & 01777)),
                names.user(inode.uid()), names.group(inode.gid()), symlink, path);
    }

    /** The inode at {@code path}, or empty when there is none (nor can be: a file on the way, as HDFS says). */
    /** The size of an open handle's file; a failure lets go of the handle. */
    private long sizeOrRelease(long fh, String path) throws IOException {
        try {
            return volume.fstat(fh).size();
        } catch (IOException | RuntimeException e) {
            try {
                volume.release(fh);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw HadoopErrors.translate(io, path);
            }
            throw (RuntimeException) e;
        }
    }

    private Optional<Inode> find(String path) throws IOException {
        try {
            return Optional.of(volume.getattr(path));
        } catch (FsException e) {
            if (e.error() == FsError.ENOENT || e.error() == FsError.ENOTDIR) {
                return Optional.empty();
            }
            throw HadoopErrors.translate(e, path);
        }
    }

    private int permission(FsPermission permission, FsPermission fallback) {
        FsPermission given = permission == null ? fallback : permission;
        return given.applyUMask(FsPermission.getUMask(getConf())).toShort() & 07777;
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /** Runs a client call, its errors as Hadoop's callers expect them. */
    private static <T> T call(String path, VolumeCall<T> call) throws IOException {
        try {
            return call.run();
        } catch (IOException e) {
            throw HadoopErrors.translate(e, path);
        }
    }

    @FunctionalInterface
    private interface VolumeCall<T> {
        T run() throws IOException;
    }
}
