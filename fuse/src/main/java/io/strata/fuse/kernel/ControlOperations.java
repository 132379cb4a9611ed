package io.strata.fuse.kernel;

import io.strata.core.fs.FsError;
import io.strata.fuse.observe.ControlFiles;
import io.strata.fuse.observe.ControlFiles.ControlFile;

import java.nio.ByteBuffer;

/**
 * The requests on {@code .stats} and {@code .accesslog} ({@link ControlFiles}): attributes, open,
 * read and release; any change is refused with EPERM, extended attributes do not exist.
 */
final class ControlOperations {
    private static final int FOPEN_DIRECT_IO = 1;
    private static final int FOPEN_NONSEEKABLE = 1 << 2;

    private final ControlFiles files;
    private final AttrEncoder attrs;

    ControlOperations(ControlFiles files, AttrEncoder attrs) {
        this.files = files;
        this.attrs = attrs;
    }

    /** The entry for a lookup of {@code file}'s name in the root; never counted, never forgotten. */
    void lookup(Request request, Replies out, ControlFile file) {
        attrs.entryOut(out.begin(), files.inode(file));
        out.send(request);
    }

    void serve(Request request, Replies out, ControlFile file) throws InterruptedException {
        switch (request.opcode()) {
            case Opcode.GETATTR -> {
                attrs.attrOut(out.begin(), files.inode(file));
                out.send(request);
            }
            case Opcode.OPEN -> {
                int flags = request.u32();
                if ((flags & 3) != 0) {
                    out.error(request, FsError.EACCES.errno());
                    return;
                }
                ByteBuffer b = out.begin();
                b.putLong(files.open(file));
                b.putInt(FOPEN_DIRECT_IO | (file == ControlFile.ACCESS_LOG ? FOPEN_NONSEEKABLE : 0));
                b.putInt(0);
                out.send(request);
            }
            case Opcode.READ -> {
                long fh = request.u64();
                long offset = request.u64();
                int size = request.u32();
                ByteBuffer data = out.payload(size);
                int n = files.read(fh, offset, data);
                if (n < 0) {
                    out.error(request, FsError.EBADF.errno());
                } else {
                    out.sendPayload(request, n);
                }
            }
            case Opcode.RELEASE -> {
                files.release(request.u64());
                out.ok(request);
            }
            case Opcode.FLUSH, Opcode.ACCESS -> out.ok(request);
            case Opcode.GETXATTR -> out.error(request, FsError.ENODATA.errno());
            case Opcode.LISTXATTR -> {
                int size = request.u32();
                if (size == 0) {
                    ByteBuffer b = out.begin();
                    b.putInt(0);
                    b.putInt(0);
                    out.send(request);
                } else {
                    out.sendPayload(request, 0);
                }
            }
            default -> out.error(request, FsError.EPERM.errno());
        }
    }
}
