package io.strata.fuse;

import io.strata.client.Caller;
import io.strata.client.FsStatistics;
import io.strata.client.StrataFileSystem;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.fuse.observe.AccessLog;
import io.strata.fuse.observe.ControlFiles;
import io.strata.fuse.observe.ControlFiles.ControlFile;
import io.strata.fuse.observe.FuseMeters;
import io.strata.fuse.observe.MountStats;
import io.strata.meta.Inode;
import io.strata.meta.XattrMode;
import com.kenai.jffi.MemoryIO;
import jnr.ffi.Pointer;
import jnr.ffi.types.mode_t;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseContext;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;
import ru.serce.jnrfuse.struct.Timespec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAccumulator;

import static java.util.Objects.requireNonNull;

/**
 * The FUSE callbacks: each decodes libfuse's arguments, calls {@link StrataFileSystem}, and maps
 * the outcome to 0 or a negative errno.
 *
 * <p>Only overridden callbacks are registered with libfuse (jnr-fuse skips the stubs). Errors a
 * user can cause arrive as {@link FsException}s with their own errno; anything else is logged and
 * reported as EIO, so one bad request never takes the mount down.
 */
final class StrataFuse extends FuseStubFS {
    private static final Logger log = LoggerFactory.getLogger(StrataFuse.class);

    /** tv_nsec values of utimensat(2) that libfuse passes through. */
    private static final long UTIME_NOW = (1L << 30) - 1;
    private static final long UTIME_OMIT = (1L << 30) - 2;

    /**
     * Views libfuse's request buffers as direct ByteBuffers, so data moves between the kernel's
     * buffer and the under storage with no copy through the Java heap (and no per-thread transfer
     * buffers, which libfuse2's short-lived worker threads would keep reallocating).
     */
    private static final MemoryIO NATIVE = MemoryIO.getInstance();
    /** The callbacks a control file answers; any other on one is EPERM. */
    private static final Set<String> CONTROL_FILE_CALLS = Set.of("getattr", "fgetattr", "open", "release", "access");

    private final StrataFileSystem fs;
    private final FuseMeters meters;
    private final ControlFiles control;
    private final LongAccumulator largestRead = new LongAccumulator(Math::max, 0);
    private final LongAccumulator largestWrite = new LongAccumulator(Math::max, 0);

    StrataFuse(StrataFileSystem fs, MountStats stats) {
        this.fs = requireNonNull(fs, "fs is null");
        this.meters = stats.meters();
        this.control = stats.controlFiles();
        enableUtimeOmit();
    }

    /**
     * Sets libfuse2's {@code flag_utime_omit_ok}, which jnr-fuse declares only as padding. Without
     * it libfuse2 silently drops a utimensat(2) that sets only one of atime and mtime
     * ({@code touch -a}, {@code touch -m}) and reports success; with it, UTIME_OMIT and UTIME_NOW
     * reach {@link #utimens}, which handles both.
     *
     * <p>libfuse 2.9's {@code struct fuse_operations}: 38 function pointers ({@code getattr} to
     * {@code bmap}), then an {@code unsigned int} of bit fields ({@code flag_nullpath_ok:1,
     * flag_nopath:1, flag_utime_omit_ok:1}, from the low bit), then 6 more pointers.
     */
    private void enableUtimeOmit() {
        long pointer = jnr.ffi.Runtime.getSystemRuntime().addressSize();
        if (jnr.ffi.Struct.size(fuseOperations) != 45 * pointer) {
            log.warn("unexpected jnr-fuse fuse_operations layout ({} bytes); touch -a and touch -m will not"
                    + " change times", jnr.ffi.Struct.size(fuseOperations));
            return;
        }
        Pointer ops = jnr.ffi.Struct.getMemory(fuseOperations);
        long flags = 38 * pointer;
        ops.putByte(flags, (byte) (ops.getByte(flags) | 0b100));
    }

    @Override
    protected String getFSName() {
        return "strata";
    }

    /** The largest read and write requests the kernel sent, for the log and the notes. */
    String requestSizes() {
        return "largest read request " + largestRead.get() + " bytes, largest write request "
                + largestWrite.get() + " bytes";
    }

    // ---- attributes -------------------------------------------------------------------------

    @Override
    public int getattr(String path, FileStat stat) {
        Optional<ControlFile> file = controlFile(path);
        if (file.isPresent()) {
            return call("getattr", path, () -> fill(stat, control.inode(file.get())));
        }
        return call("getattr", path, () -> fill(stat, fs.getattr(path)));
    }

    @Override
    public int fgetattr(String path, FileStat stat, FuseFileInfo fi) {
        Optional<ControlFile> file = controlFile(path);
        if (file.isPresent()) {
            return call("fgetattr", path, () -> fill(stat, control.inode(file.get())));
        }
        return call("fgetattr", path, () -> fill(stat, fs.fstat(fi.fh.get())));
    }

    /** {@code /.stats} and {@code /.accesslog} ({@link ControlFiles}), answered here, not by the file system. */
    private static Optional<ControlFile> controlFile(String path) {
        return path.startsWith("/.") && path.indexOf('/', 1) < 0 ? ControlFiles.byName(path.substring(1))
                : Optional.empty();
    }

    private static void fill(FileStat stat, Inode inode) {
        stat.st_ino.set(inode.ino());
        stat.st_mode.set(inode.stMode());
        stat.st_nlink.set(inode.nlink());
        stat.st_uid.set(inode.uid());
        stat.st_gid.set(inode.gid());
        stat.st_rdev.set(inode.rdev());
        stat.st_size.set(inode.size());
        stat.st_blksize.set(4096);
        stat.st_blocks.set((inode.size() + 511) / 512);
        setTime(stat.st_atim, inode.atimeNs());
        setTime(stat.st_mtim, inode.mtimeNs());
        setTime(stat.st_ctim, inode.ctimeNs());
    }

    private static void setTime(Timespec time, long ns) {
        time.tv_sec.set(Math.floorDiv(ns, 1_000_000_000L));
        time.tv_nsec.set(Math.floorMod(ns, 1_000_000_000L));
    }

    @Override
    public int chmod(String path, @mode_t long mode) {
        return call("chmod", path, () -> fs.chmod(path, (int) mode));
    }

    @Override
    public int chown(String path, long uid, long gid) {
        // chown(2) passes -1 for "unchanged"; libfuse hands it over as an unsigned 32-bit value.
        return call("chown", path, () -> fs.chown(path, (int) uid, (int) gid));
    }

    @Override
    public int utimens(String path, Timespec[] times) {
        return call("utimens", path, () -> fs.utimens(path, toNs(times[0]), toNs(times[1])));
    }

    private static Long toNs(Timespec time) {
        long nsec = time.tv_nsec.longValue();
        if (nsec == UTIME_OMIT) {
            return null;
        }
        if (nsec == UTIME_NOW) {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }
        return time.tv_sec.get() * 1_000_000_000L + nsec;
    }

    @Override
    public int access(String path, int mask) {
        if (controlFile(path).isPresent()) {
            return call("access", path, () -> { });
        }
        return call("access", path, () -> fs.access(path, mask, caller()));
    }

    @Override
    public int statfs(String path, Statvfs stat) {
        return call("statfs", path, () -> {
            FsStatistics s = fs.statfs();
            stat.f_bsize.set(s.blockSize());
            stat.f_frsize.set(s.blockSize());
            stat.f_blocks.set(s.totalBlocks());
            stat.f_bfree.set(s.freeBlocks());
            stat.f_bavail.set(s.availableBlocks());
            stat.f_files.set(s.files());
            stat.f_ffree.set(s.freeFiles());
            stat.f_favail.set(s.freeFiles());
            stat.f_namemax.set(s.nameMax());
        });
    }

    // ---- namespace --------------------------------------------------------------------------

    @Override
    public int readdir(String path, Pointer buf, FuseFillDir filler, @off_t long offset, FuseFileInfo fi) {
        return call("readdir", path, () -> {
            filler.apply(buf, ".", null, 0);
            filler.apply(buf, "..", null, 0);
            fs.readdir(path, entry -> filler.apply(buf, entry.name(), null, 0));
        });
    }

    @Override
    public int mkdir(String path, @mode_t long mode) {
        return call("mkdir", path, () -> fs.mkdir(path, (int) mode, caller()));
    }

    @Override
    public int rmdir(String path) {
        return call("rmdir", path, () -> fs.rmdir(path));
    }

    @Override
    public int mknod(String path, @mode_t long mode, long rdev) {
        return call("mknod", path, () -> fs.mknod(path, (int) mode, rdev, caller()));
    }

    @Override
    public int unlink(String path) {
        return call("unlink", path, () -> fs.unlink(path));
    }

    @Override
    public int rename(String oldPath, String newPath) {
        return call("rename", oldPath, () -> fs.rename(oldPath, newPath));
    }

    @Override
    public int link(String oldPath, String newPath) {
        return call("link", newPath, () -> fs.link(oldPath, newPath));
    }

    @Override
    public int symlink(String target, String linkPath) {
        return call("symlink", linkPath, () -> fs.symlink(target, linkPath, caller()));
    }

    @Override
    public int readlink(String path, Pointer buf, @size_t long size) {
        return call("readlink", path, () -> {
            byte[] target = fs.readlink(path).getBytes(StandardCharsets.UTF_8);
            // readlink in libfuse2's high-level API wants a NUL-terminated string, cut to the buffer.
            int length = (int) Math.min(target.length, size - 1);
            buf.put(0, target, 0, length);
            buf.putByte(length, (byte) 0);
        });
    }

    // ---- file data --------------------------------------------------------------------------

    @Override
    public int create(String path, @mode_t long mode, FuseFileInfo fi) {
        return call("create", path, () -> fi.fh.set(fs.create(path, (int) mode, caller())));
    }

    @Override
    public int open(String path, FuseFileInfo fi) {
        Optional<ControlFile> file = controlFile(path);
        if (file.isPresent()) {
            if ((fi.flags.get() & 3) != 0) {
                return served("open", path, System.nanoTime(), -FsError.EACCES.errno());
            }
            return call("open", path, () -> {
                fi.fh.set(control.open(file.get()));
                setDirectIo(fi);
            });
        }
        return call("open", path, () -> fi.fh.set(fs.open(path, fi.flags.get())));
    }

    /**
     * Sets {@code direct_io} in libfuse2's {@code struct fuse_file_info}, which jnr-fuse declares
     * only as padding: the control files report size 0, and without direct I/O the kernel would
     * read nothing past it. In libfuse 2.9 the bit fields follow {@code int flags},
     * {@code unsigned long fh_old} and {@code int writepage}; direct_io is their lowest bit.
     */
    private static void setDirectIo(FuseFileInfo fi) {
        long bitFields = 2L * jnr.ffi.Runtime.getSystemRuntime().addressSize() + 4;
        Pointer memory = jnr.ffi.Struct.getMemory(fi);
        memory.putInt(bitFields, memory.getInt(bitFields) | 1);
    }

    @Override
    public int read(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        largestRead.accumulate(size);
        long start = System.nanoTime();
        int result;
        if (controlFile(path).isPresent()) {
            try {
                result = control.read(fi.fh.get(), offset, NATIVE.newDirectByteBuffer(buf.address(), (int) size));
                return served("read", path, start, result < 0 ? -FsError.EBADF.errno() : result);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return served("read", path, start, -FsError.EIO.errno());
            }
        }
        try {
            result = fs.read(fi.fh.get(), NATIVE.newDirectByteBuffer(buf.address(), (int) size), offset);
            meters.read(Math.max(result, 0));
        } catch (Exception | Error e) {
            result = failure("read", path, e);
        }
        return served("read", path, start, result);
    }

    @Override
    public int write(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        largestWrite.accumulate(size);
        long start = System.nanoTime();
        int result;
        try {
            fs.write(fi.fh.get(), NATIVE.newDirectByteBuffer(buf.address(), (int) size), offset);
            meters.written(size);
            result = (int) size;
        } catch (Exception | Error e) {
            result = failure("write", path, e);
        }
        return served("write", path, start, result);
    }

    @Override
    public int flush(String path, FuseFileInfo fi) {
        if (controlFile(path).isPresent()) {
            return 0;
        }
        return call("flush", path, () -> fs.flush(fi.fh.get()));
    }

    @Override
    public int fsync(String path, int isdatasync, FuseFileInfo fi) {
        return call("fsync", path, () -> fs.fsync(fi.fh.get()));
    }

    @Override
    public int release(String path, FuseFileInfo fi) {
        if (controlFile(path).isPresent()) {
            return call("release", path, () -> control.release(fi.fh.get()));
        }
        return call("release", path, () -> fs.release(fi.fh.get()));
    }

    @Override
    public int truncate(String path, @off_t long size) {
        return call("truncate", path, () -> fs.truncate(path, size));
    }

    @Override
    public int ftruncate(String path, @off_t long size, FuseFileInfo fi) {
        return call("ftruncate", path, () -> fs.ftruncate(fi.fh.get(), size));
    }

    // ---- extended attributes ----------------------------------------------------------------

    @Override
    public int setxattr(String path, String name, Pointer value, @size_t long size, int flags) {
        return call("setxattr", path, () -> {
            byte[] bytes = new byte[(int) size];
            value.get(0, bytes, 0, bytes.length);
            fs.setxattr(path, name, bytes, XattrMode.fromFlags(flags));
        });
    }

    @Override
    public int getxattr(String path, String name, Pointer value, @size_t long size) {
        long start = System.nanoTime();
        int result;
        if (controlFile(path).isPresent()) {
            return served("getxattr", path, start, -FsError.ENODATA.errno());
        }
        try {
            Optional<byte[]> found = fs.getxattr(path, name);
            result = found.isEmpty() ? -FsError.ENODATA.errno() : copyOut(found.get(), value, size);
        } catch (Exception | Error e) {
            result = failure("getxattr", path, e);
        }
        return served("getxattr", path, start, result);
    }

    @Override
    public int listxattr(String path, Pointer list, @size_t long size) {
        long start = System.nanoTime();
        int result;
        if (controlFile(path).isPresent()) {
            return served("listxattr", path, start, 0);
        }
        try {
            List<String> names = fs.listxattr(path);
            StringBuilder joined = new StringBuilder();
            names.forEach(n -> joined.append(n).append('\0'));
            result = copyOut(joined.toString().getBytes(StandardCharsets.UTF_8), list, size);
        } catch (Exception | Error e) {
            result = failure("listxattr", path, e);
        }
        return served("listxattr", path, start, result);
    }

    /** The xattr calls' protocol: size 0 asks for the length; a short buffer is ERANGE. */
    private static int copyOut(byte[] bytes, Pointer out, long size) {
        if (size == 0) {
            return bytes.length;
        }
        if (size < bytes.length) {
            return -FsError.ERANGE.errno();
        }
        out.put(0, bytes, 0, bytes.length);
        return bytes.length;
    }

    @Override
    public int removexattr(String path, String name) {
        return call("removexattr", path, () -> fs.removexattr(path, name));
    }

    // ---- plumbing ---------------------------------------------------------------------------

    private Caller caller() {
        FuseContext context = getContext();
        return new Caller(context.uid.intValue(), context.gid.intValue());
    }

    @FunctionalInterface
    private interface Operation {
        void run() throws IOException;
    }

    private int call(String op, String path, Operation operation) {
        long start = System.nanoTime();
        if (controlFile(path).isPresent() && !CONTROL_FILE_CALLS.contains(op)) {
            return served(op, path, start, -FsError.EPERM.errno()); // read-only, and not the file system's
        }
        int result;
        try {
            operation.run();
            result = 0;
        } catch (Exception | Error e) {
            result = failure(op, path, e);
        }
        return served(op, path, start, result);
    }

    /**
     * Meters a callback by libfuse's name for it, and logs it if anyone reads the access log;
     * returns its result (negative: an errno).
     */
    private int served(String op, String path, long start, int result) {
        long nanos = System.nanoTime() - start;
        int errno = result < 0 ? -result : 0;
        meters.served(op, errno, nanos);
        AccessLog accessLog = control.accessLog();
        if (accessLog.active() && controlFile(path).isEmpty()) {
            FuseContext context = getContext();
            String bytes = errno == 0 && (op.equals("read") || op.equals("write")) ? Integer.toString(result) : null;
            accessLog.record(context.uid.intValue(), context.gid.intValue(), context.pid.intValue(), op,
                    '"' + path + '"', errno, bytes, nanos);
        }
        return result;
    }

    /**
     * The errno a callback answers for what it threw: an {@link FsException}'s own, anything else
     * EIO, an {@link Error} included (see the kernel transport's {@code Operations.answer}: an Error
     * let through libfuse's callback would leave the request unanswered). Logged if logging works.
     */
    private static int failure(String op, String path, Throwable e) {
        try {
            if (e instanceof FsException fe) {
                if (fe.error() == FsError.EIO) {
                    log.warn("{} {}: {}", op, path, fe.getMessage(), fe);
                } else {
                    log.debug("{} {}: {}", op, path, fe.getMessage());
                }
            } else {
                log.error("{} {} failed", op, path, e);
            }
        } catch (RuntimeException | Error logging) {
            // Nothing is left to report it with; the caller still gets its errno.
        }
        return e instanceof FsException fe ? -fe.error().errno() : -FsError.EIO.errno();
    }
}
