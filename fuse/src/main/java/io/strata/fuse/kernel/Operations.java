package io.strata.fuse.kernel;

import io.strata.client.Caller;
import io.strata.client.FsStatistics;
import io.strata.client.StrataFileSystem;
import io.strata.core.cache.PageRegions;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.fuse.observe.ControlFiles;
import io.strata.fuse.observe.ControlFiles.ControlFile;
import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.XattrMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The inode-level operations: each decodes its request's arguments, calls
 * {@link StrataFileSystem}'s inode API and encodes the reply the kernel expects.
 *
 * <p>Errors a user can cause arrive as {@link FsException}s and go back as their errno; anything
 * else is logged and answered EIO, so one bad request never takes the mount down. Called by many
 * worker threads at once; all state lives in the file system, the lookup counts and the directory
 * handles, each safe for that.
 */
final class Operations {
    private static final Logger log = LoggerFactory.getLogger(Operations.class);

    // fuse_setattr_in.valid
    private static final int FATTR_MODE = 1;
    private static final int FATTR_UID = 1 << 1;
    private static final int FATTR_GID = 1 << 2;
    private static final int FATTR_SIZE = 1 << 3;
    private static final int FATTR_ATIME = 1 << 4;
    private static final int FATTR_MTIME = 1 << 5;
    private static final int FATTR_FH = 1 << 6;
    private static final int FATTR_ATIME_NOW = 1 << 7;
    private static final int FATTR_MTIME_NOW = 1 << 8;
    private static final int FATTR_KILL_SUIDGID = 1 << 11;
    // What the kernel asks of a server that clears set-ID bits itself (Init.HANDLE_KILLPRIV_V2):
    // fuse_write_in.write_flags and fuse_open_in.open_flags
    private static final int FUSE_WRITE_KILL_SUIDGID = 1 << 2;
    private static final int FUSE_OPEN_KILL_SUIDGID = 1;
    private static final int FUSE_GETATTR_FH = 1;
    private static final int FOPEN_DIRECT_IO = 1;
    private static final int FOPEN_KEEP_CACHE = 1 << 1;
    private static final int FOPEN_NOFLUSH = 1 << 5;
    private static final int DT_DIR = 4;
    private static final int SEEK_DATA = 3;
    private static final int SEEK_HOLE = 4;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    /** copy_file_range replies count bytes in 32 bits; a longer copy is continued by the kernel. */
    private static final long MAX_COPY = 1L << 30;

    private final StrataFileSystem fs;
    private final AttrEncoder attrs;
    private final LookupCounts lookups;
    private final Notifier notifier;
    private final DirectoryHandles directories;
    private final ControlOperations control;
    private final int openFlags;
    private final boolean xattrs;

    Operations(StrataFileSystem fs, KernelSettings settings, LookupCounts lookups, Notifier notifier,
               ControlFiles controlFiles) {
        this.fs = requireNonNull(fs, "fs is null");
        this.attrs = new AttrEncoder(settings.entryTimeout(), settings.attrTimeout(), settings.negativeTimeout(),
                settings.uid(), settings.gid(), settings.umask());
        this.lookups = requireNonNull(lookups, "lookups is null");
        this.notifier = requireNonNull(notifier, "notifier is null");
        this.directories = new DirectoryHandles(fs);
        this.control = new ControlOperations(controlFiles, attrs);
        this.xattrs = settings.xattrs();
        this.openFlags = (settings.directIo() ? FOPEN_DIRECT_IO : 0) | (settings.keepCache() ? FOPEN_KEEP_CACHE : 0);
    }

    /** Serves one request that wants a reply, answering errors as their errno. */
    void serve(Request request, Replies out) {
        answer(request, out, () -> dispatch(request, out));
    }

    /** A request's work, which writes its reply itself unless it throws. */
    interface Dispatch {
        void run() throws IOException;
    }

    /**
     * Runs {@code dispatch} and answers whatever it throws: an {@link FsException} as its errno,
     * anything else as EIO, an {@link Error} included (a class that no longer loads because its jar
     * was overwritten, a stack overflow, the bounded heap exhausted). An unanswered request leaves
     * its caller waiting in the kernel for ever, unkillable, and an Error let through would end the
     * worker, one fewer for every request after. The answer goes out before the log line: logging
     * can fail the same way.
     */
    static void answer(Request request, Replies out, Dispatch dispatch) {
        try {
            dispatch.run();
        } catch (FsException e) {
            out.error(request, e.error().errno());
            if (e.error() == FsError.EIO) {
                log.warn("{} on node {}: {}", Opcode.name(request.opcode()), request.nodeId(), e.getMessage(), e);
            } else {
                log.debug("{} on node {}: {}", Opcode.name(request.opcode()), request.nodeId(), e.getMessage());
            }
        } catch (Exception | Error e) {
            out.error(request, FsError.EIO.errno());
            try {
                log.error("{} on node {} failed", Opcode.name(request.opcode()), request.nodeId(), e);
            } catch (RuntimeException | Error logging) {
                // Nothing is left to report it with; the caller has its answer and the worker goes on.
            }
        }
    }

    private void dispatch(Request request, Replies out) throws IOException {
        Optional<ControlFile> controlFile = ControlFiles.byIno(request.nodeId());
        if (controlFile.isPresent()) {
            serveControl(request, out, controlFile.get());
            return;
        }
        switch (request.opcode()) {
            case Opcode.LOOKUP -> lookup(request, out);
            case Opcode.GETATTR -> getattr(request, out);
            case Opcode.SETATTR -> setattr(request, out);
            case Opcode.READLINK -> readlink(request, out);
            case Opcode.SYMLINK -> symlink(request, out);
            case Opcode.MKNOD -> mknod(request, out);
            case Opcode.MKDIR -> mkdir(request, out);
            case Opcode.UNLINK -> {
                fs.unlink(request.nodeId(), request.name());
                out.ok(request);
            }
            case Opcode.RMDIR -> {
                fs.rmdir(request.nodeId(), request.name());
                out.ok(request);
            }
            case Opcode.RENAME -> rename(request, out, false);
            case Opcode.RENAME2 -> rename(request, out, true);
            case Opcode.LINK -> link(request, out);
            case Opcode.OPEN -> open(request, out);
            case Opcode.CREATE -> create(request, out);
            case Opcode.READ -> read(request, out);
            case Opcode.WRITE -> write(request, out);
            case Opcode.FLUSH -> {
                fs.flush(request.u64());
                out.ok(request);
            }
            case Opcode.FSYNC -> {
                fs.fsync(request.u64());
                out.ok(request);
            }
            case Opcode.RELEASE -> {
                fs.release(request.u64());
                out.ok(request);
            }
            case Opcode.OPENDIR -> opendir(request, out);
            case Opcode.READDIR -> readdir(request, out, false);
            case Opcode.READDIRPLUS -> readdir(request, out, true);
            case Opcode.RELEASEDIR -> {
                directories.release(request.u64());
                out.ok(request);
            }
            case Opcode.FSYNCDIR -> out.ok(request); // every metastore change is durable when it returns
            case Opcode.STATFS -> statfs(request, out);
            case Opcode.ACCESS -> {
                fs.access(request.nodeId(), request.u32(), caller(request));
                out.ok(request);
            }
            case Opcode.SETXATTR, Opcode.GETXATTR, Opcode.LISTXATTR, Opcode.REMOVEXATTR -> {
                if (!xattrs) {
                    out.error(request, FsError.ENOSYS.errno()); // the kernel remembers: asked once per mount
                    return;
                }
                xattr(request, out);
            }
            case Opcode.FALLOCATE -> fallocate(request, out);
            case Opcode.LSEEK -> lseek(request, out);
            case Opcode.COPY_FILE_RANGE -> copyFileRange(request, out);
            default -> out.error(request, FsError.ENOSYS.errno());
        }
    }

    private void serveControl(Request request, Replies out, ControlFile file) throws IOException {
        try {
            control.serve(request, out, file);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FsException(FsError.EIO, "interrupted while reading " + file.fileName());
        }
    }

    // ---- names and attributes ---------------------------------------------------------------

    private void lookup(Request request, Replies out) throws IOException {
        String name = request.name();
        if (request.nodeId() == LookupCounts.ROOT) {
            Optional<ControlFile> file = ControlFiles.byName(name);
            if (file.isPresent()) {
                control.lookup(request, out, file.get());
                return;
            }
        }
        Inode inode;
        try {
            inode = fs.lookup(request.nodeId(), name);
        } catch (FsException e) {
            if (e.error() == FsError.ENOENT && attrs.cachesNegativeEntries()) {
                attrs.negativeEntryOut(out.begin());
                out.send(request);
                return;
            }
            throw e;
        }
        replyEntry(request, out, inode);
    }

    private void replyEntry(Request request, Replies out, Inode inode) {
        attrs.entryOut(out.begin(), inode);
        lookups.looked(inode.ino());
        out.send(request);
    }

    private void getattr(Request request, Replies out) throws IOException {
        int flags = request.u32();
        request.skip(4);
        long fh = request.u64();
        Inode inode = (flags & FUSE_GETATTR_FH) != 0 ? fs.fstat(fh) : fs.stat(request.nodeId());
        attrs.attrOut(out.begin(), inode);
        out.send(request);
    }

    private void setattr(Request request, Replies out) throws IOException {
        long ino = request.nodeId();
        int valid = request.u32();
        request.skip(4);
        long fh = request.u64();
        long size = request.u64();
        request.skip(8); // lock_owner
        long atime = request.u64();
        long mtime = request.u64();
        request.skip(8); // ctime: set by the metastore on every change
        int atimeNs = request.u32();
        int mtimeNs = request.u32();
        request.skip(4);
        int mode = request.u32();
        request.skip(4);
        int uid = request.u32();
        int gid = request.u32();

        if ((valid & FATTR_SIZE) != 0) {
            if ((valid & FATTR_FH) != 0) {
                fs.ftruncate(fh, size);
            } else {
                fs.truncate(ino, size);
            }
        }
        if ((valid & FATTR_MODE) != 0) {
            fs.chmod(ino, mode & 07777);
        }
        if ((valid & (FATTR_UID | FATTR_GID)) != 0) {
            fs.chown(ino, (valid & FATTR_UID) != 0 ? uid : -1, (valid & FATTR_GID) != 0 ? gid : -1);
        }
        if ((valid & FATTR_KILL_SUIDGID) != 0) { // a truncate or a change of owner
            fs.clearSetIdBits(ino);
        }
        Long newAtime = time(valid, FATTR_ATIME, FATTR_ATIME_NOW, atime, atimeNs);
        Long newMtime = time(valid, FATTR_MTIME, FATTR_MTIME_NOW, mtime, mtimeNs);
        if (newAtime != null || newMtime != null) {
            fs.utimens(ino, newAtime, newMtime);
        }
        attrs.attrOut(out.begin(), fs.stat(ino));
        out.send(request);
    }

    private static Long time(int valid, int setBit, int nowBit, long seconds, int nanos) {
        if ((valid & nowBit) != 0) {
            Instant now = Instant.now();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }
        return (valid & setBit) != 0 ? seconds * 1_000_000_000L + nanos : null;
    }

    private void readlink(Request request, Replies out) throws IOException {
        byte[] target = fs.readlink(request.nodeId()).getBytes(StandardCharsets.UTF_8);
        out.payload(target.length).put(target);
        out.sendPayload(request, target.length);
    }

    private void symlink(Request request, Replies out) throws IOException {
        String name = request.name();
        String target = request.name();
        replyEntry(request, out, fs.symlink(request.nodeId(), name, target, caller(request)));
    }

    private void mknod(Request request, Replies out) throws IOException {
        int mode = request.u32();
        int rdev = request.u32();
        request.skip(8); // umask (already applied by the kernel), padding
        String name = request.name();
        replyEntry(request, out, fs.mknod(request.nodeId(), name, mode, Integer.toUnsignedLong(rdev),
                caller(request)));
    }

    private void mkdir(Request request, Replies out) throws IOException {
        int mode = request.u32();
        request.skip(4); // umask
        String name = request.name();
        replyEntry(request, out, fs.mkdir(request.nodeId(), name, mode & 07777, caller(request)));
    }

    private void rename(Request request, Replies out, boolean withFlags) throws IOException {
        long newParent = request.u64();
        int flags = 0;
        if (withFlags) {
            flags = request.u32();
            request.skip(4);
        }
        String name = request.name();
        String newName = request.name();
        fs.rename(request.nodeId(), name, newParent, newName, flags);
        out.ok(request);
    }

    private void link(Request request, Replies out) throws IOException {
        long existing = request.u64();
        String newName = request.name();
        replyEntry(request, out, fs.link(existing, request.nodeId(), newName));
    }

    private void statfs(Request request, Replies out) throws IOException {
        FsStatistics s = fs.statfs();
        ByteBuffer b = out.begin();
        b.putLong(s.totalBlocks());
        b.putLong(s.freeBlocks());
        b.putLong(s.availableBlocks());
        b.putLong(s.files());
        b.putLong(s.freeFiles());
        b.putInt((int) s.blockSize());
        b.putInt((int) s.nameMax());
        b.putInt((int) s.blockSize()); // frsize
        b.putInt(0);
        for (int i = 0; i < 6; i++) {
            b.putInt(0);
        }
        out.send(request);
    }

    // ---- file data --------------------------------------------------------------------------

    private void open(Request request, Replies out) throws IOException {
        int flags = request.u32();
        int kernelOpenFlags = request.u32();
        if ((kernelOpenFlags & FUSE_OPEN_KILL_SUIDGID) != 0) { // an O_TRUNC open, cleared first as truncate(2) does
            clearSetIdBits(request.nodeId());
        }
        long fh = fs.open(request.nodeId(), flags);
        int replyFlags = notifier.takeChangedSinceOpen(request.nodeId()) ? openFlags & ~FOPEN_KEEP_CACHE : openFlags;
        if (!StrataFileSystem.writes(flags)) {
            // A reader's close has nothing to record (a descriptor that wrote records its writes at
            // its own close), so the kernel need not send FLUSH for it: one round trip less per
            // file read. The kernel ignores this with writeback_cache, where a close writes dirty
            // pages back.
            replyFlags |= FOPEN_NOFLUSH;
        }
        openOut(out.begin(), fh, replyFlags);
        out.send(request);
    }

    private static void openOut(ByteBuffer b, long fh, int flags) {
        b.putLong(fh);
        b.putInt(flags);
        b.putInt(0);
    }

    private void create(Request request, Replies out) throws IOException {
        int flags = request.u32();
        int mode = request.u32();
        // umask (applied by the kernel); open_flags, whose FUSE_OPEN_KILL_SUIDGID only an O_TRUNC
        // brings: a file made by this request has nothing to truncate, and an existing name is EEXIST
        request.skip(8);
        String name = request.name();
        StrataFileSystem.Created created = fs.create(request.nodeId(), name, mode & 07777, flags, caller(request));
        ByteBuffer b = out.begin();
        attrs.entryOut(b, created.inode());
        openOut(b, created.fh(), openFlags);
        lookups.looked(created.inode().ino());
        out.send(request);
    }

    private void read(Request request, Replies out) throws IOException {
        long fh = request.u64();
        long offset = request.u64();
        int size = request.u32();
        if (out.splices(size)) {
            try (PageRegions regions = fs.readRegions(fh, offset, size)) {
                if (regions != null && out.sendRegions(request, regions)) {
                    return;
                }
            }
        }
        ByteBuffer data = out.payload(size);
        int n = 0;
        while (data.hasRemaining()) {
            int read = fs.read(fh, data, offset + n, out); // bytes lent in memory are sent from there
            if (read <= 0) {
                break;
            }
            n += read;
        }
        out.sendPayload(request, n);
    }

    private void write(Request request, Replies out) throws IOException {
        long fh = request.u64();
        long offset = request.u64();
        int size = request.u32();
        int writeFlags = request.u32();
        request.skip(8 + 4 + 4); // lock_owner, flags, padding
        if ((writeFlags & FUSE_WRITE_KILL_SUIDGID) != 0) {
            clearSetIdBits(request.nodeId());
        }
        fs.write(fh, request.bytes(size), offset);
        ByteBuffer b = out.begin();
        b.putInt(size);
        b.putInt(0);
        out.send(request);
    }

    /**
     * Clears a file's set-ID bits for a request whose reply carries no attributes (WRITE, OPEN):
     * after those the kernel refreshes only the size and times it caches, so its cached mode is
     * dropped here, before the reply, or stat(2) would show the bits until attr_timeout.
     */
    private void clearSetIdBits(long ino) throws IOException {
        if (fs.clearSetIdBits(ino)) {
            notifier.attributesChangedNow(ino);
        }
    }

    private void fallocate(Request request, Replies out) throws IOException {
        long fh = request.u64();
        long offset = request.u64();
        long length = request.u64();
        int mode = request.u32();
        if ((mode & ~FALLOC_FL_KEEP_SIZE) != 0) {
            throw new FsException(FsError.ENOTSUP, "fallocate mode " + mode + " (only plain allocation is supported)");
        }
        fs.fallocate(fh, offset, length, mode == FALLOC_FL_KEEP_SIZE);
        out.ok(request);
    }

    private void lseek(Request request, Replies out) throws IOException {
        long fh = request.u64();
        long offset = request.u64();
        int whence = request.u32();
        long size = fs.fstat(fh).size();
        long result;
        if (whence == SEEK_DATA || whence == SEEK_HOLE) {
            // No holes are tracked: data runs from 0 to the size, a hole starts at the size.
            if (offset < 0) {
                throw new FsException(FsError.EINVAL, "negative offset " + offset);
            }
            if (offset >= size) {
                throw new FsException(FsError.ENXIO, "offset past the end");
            }
            result = whence == SEEK_DATA ? offset : size;
        } else {
            throw new FsException(FsError.EINVAL, "lseek whence " + whence);
        }
        out.begin().putLong(result);
        out.send(request);
    }

    /**
     * Copies between two open files inside the daemon, through this worker's payload buffer: the
     * bytes never travel to the application and back.
     */
    private void copyFileRange(Request request, Replies out) throws IOException {
        long fhIn = request.u64();
        long offIn = request.u64();
        request.skip(8); // nodeid_out
        long fhOut = request.u64();
        long offOut = request.u64();
        long length = Math.min(request.u64(), MAX_COPY);
        long copied = 0;
        while (copied < length) {
            ByteBuffer chunk = out.payload((int) Math.min(out.payloadCapacity(), length - copied));
            int n = fs.read(fhIn, chunk, offIn + copied);
            if (n <= 0) {
                break;
            }
            chunk.flip();
            fs.write(fhOut, chunk, offOut + copied);
            copied += n;
        }
        ByteBuffer b = out.begin();
        b.putInt((int) copied);
        b.putInt(0);
        out.send(request);
    }

    // ---- directories ------------------------------------------------------------------------

    private void opendir(Request request, Replies out) throws IOException {
        Inode dir = fs.stat(request.nodeId());
        if (!dir.isDirectory()) {
            throw new FsException(FsError.ENOTDIR, "node " + dir.ino());
        }
        long fh = directories.open(dir.ino());
        ByteBuffer b = out.begin();
        b.putLong(fh);
        b.putInt(0);
        b.putInt(0);
        out.send(request);
    }

    /**
     * READDIR and READDIRPLUS: entries from the kernel's offset on, as many as fit in the size it
     * asked for. Each entry's offset is the index of the one after it.
     */
    private void readdir(Request request, Replies out, boolean plus) throws IOException {
        long fh = request.u64();
        long offset = request.u64();
        int size = request.u32();
        DirectoryHandles.Listing listing = directories.get(fh);
        ByteBuffer b = out.payload(size);
        synchronized (listing) {
            if (offset == 0) {
                listing.restart();
            } else {
                listing.beginReply();
            }
            for (long index = offset; ; index++) {
                Dentry entry;
                long ino;
                int type;
                String name;
                if (index == 0 || index == 1) {
                    name = index == 0 ? "." : "..";
                    ino = index == 0 ? listing.dirIno() : Math.max(parentOf(listing.dirIno()), 1);
                    type = DT_DIR;
                    entry = null;
                } else {
                    entry = listing.entry((int) (index - 2));
                    if (entry == null) {
                        break;
                    }
                    name = entry.name();
                    ino = entry.ino();
                    type = (entry.type().modeBits() >>> 12) & 0xF;
                }
                byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
                int direntSize = align8(24 + nameBytes.length);
                int recordSize = plus ? AttrEncoder.ENTRY_OUT_SIZE + direntSize : direntSize;
                if (b.remaining() < recordSize) {
                    break;
                }
                if (plus) {
                    Inode inode = entry == null ? null : attributesOf(listing, (int) (index - 2), entry);
                    if (entry != null && inode == null) {
                        continue; // removed since it was listed
                    }
                    if (inode != null) {
                        attrs.entryOut(b, inode);
                        lookups.looked(inode.ino());
                    } else {
                        b.put(new byte[AttrEncoder.ENTRY_OUT_SIZE]); // "." and "..": the kernel keeps its own
                    }
                }
                b.putLong(ino);
                b.putLong(index + 1);
                b.putInt(nameBytes.length);
                b.putInt(type);
                b.put(nameBytes);
                while ((b.position() & 7) != 0) {
                    b.put((byte) 0);
                }
            }
        }
        out.sendPayload(request, b.position());
    }

    private static int align8(int n) {
        return (n + 7) & ~7;
    }

    private long parentOf(long dirIno) throws IOException {
        return fs.stat(dirIno).parent();
    }

    /**
     * An entry's attributes for READDIRPLUS: as its page read them if that was for this reply (no
     * lookup per entry), else as they are now; null if it was removed since it was listed.
     */
    private Inode attributesOf(DirectoryHandles.Listing listing, int index, Dentry entry) throws IOException {
        Inode read = listing.attributesReadForReply(index);
        return read != null ? read : statQuietly(entry.ino());
    }

    private Inode statQuietly(long ino) throws IOException {
        try {
            return fs.stat(ino);
        } catch (FsException e) {
            if (e.error() == FsError.ENOENT) {
                return null;
            }
            throw e;
        }
    }

    // ---- extended attributes ----------------------------------------------------------------

    private void xattr(Request request, Replies out) throws IOException {
        switch (request.opcode()) {
            case Opcode.SETXATTR -> setxattr(request, out);
            case Opcode.GETXATTR -> getxattr(request, out);
            case Opcode.LISTXATTR -> listxattr(request, out);
            default -> {
                fs.removexattr(request.nodeId(), request.name());
                out.ok(request);
            }
        }
    }

    private void setxattr(Request request, Replies out) throws IOException {
        int size = request.u32();
        int flags = request.u32();
        String name = request.name();
        ByteBuffer value = request.bytes(size);
        byte[] bytes = new byte[value.remaining()];
        value.get(bytes);
        fs.setxattr(request.nodeId(), name, bytes, XattrMode.fromFlags(flags));
        out.ok(request);
    }

    private void getxattr(Request request, Replies out) throws IOException {
        int size = request.u32();
        request.skip(4);
        String name = request.name();
        Optional<byte[]> value = fs.getxattr(request.nodeId(), name);
        if (value.isEmpty()) {
            throw new FsException(FsError.ENODATA, name);
        }
        replySized(request, out, size, value.get());
    }

    private void listxattr(Request request, Replies out) throws IOException {
        int size = request.u32();
        List<String> names = fs.listxattr(request.nodeId());
        StringBuilder joined = new StringBuilder();
        names.forEach(n -> joined.append(n).append('\0'));
        replySized(request, out, size, joined.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The xattr protocol: size 0 asks how long the value is; a shorter buffer is ERANGE. */
    private static void replySized(Request request, Replies out, int size, byte[] value) throws FsException {
        if (size == 0) {
            ByteBuffer b = out.begin();
            b.putInt(value.length);
            b.putInt(0);
            out.send(request);
            return;
        }
        if (size < value.length) {
            throw new FsException(FsError.ERANGE, "xattr of " + value.length + " bytes, buffer of " + size);
        }
        out.payload(value.length).put(value);
        out.sendPayload(request, value.length);
    }

    private static Caller caller(Request request) {
        return new Caller(request.uid(), request.gid());
    }
}
