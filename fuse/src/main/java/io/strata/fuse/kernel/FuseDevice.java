package io.strata.fuse.kernel;

import com.kenai.jffi.MemoryIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One open file descriptor of {@code /dev/fuse}: the connection to the kernel, or a clone of it
 * (FUSE_DEV_IOC_CLONE) that reads its own share of the requests. A reply must go to the descriptor
 * its request came from; notifications may go to any.
 *
 * <p>Reads and writes are plain read(2) and writev(2) on direct buffers: no lock is held around
 * them, so any number of threads may read and reply at once, and interrupting a Java thread never
 * closes the descriptor (as it would a {@code FileChannel}).
 */
final class FuseDevice implements AutoCloseable {
    /** _IOR(229, 0, uint32_t) from linux/fuse.h. */
    private static final long FUSE_DEV_IOC_CLONE = 0x8004E500L;
    private static final MemoryIO MEMORY = MemoryIO.getInstance();

    private final int fd;
    private volatile boolean closed;

    private FuseDevice(int fd) {
        this.fd = fd;
    }

    /** Opens a new connection's descriptor, to be handed to mount(2). */
    static FuseDevice open() throws IOException {
        int fd = LibC.get().open("/dev/fuse", LibC.O_RDWR | LibC.O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("cannot open /dev/fuse (errno " + LibC.errno()
                    + "); load the fuse module (modprobe fuse) or run as root");
        }
        return new FuseDevice(fd);
    }

    /** Wraps a descriptor received from fusermount3. */
    static FuseDevice adopt(int fd) {
        return new FuseDevice(fd);
    }

    int fd() {
        return fd;
    }

    /** A second descriptor of this connection, reading its own requests. */
    FuseDevice cloneDevice() throws IOException {
        FuseDevice clone = open();
        ByteBuffer argument = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
        argument.putInt(0, fd);
        if (LibC.get().ioctl(clone.fd, FUSE_DEV_IOC_CLONE, MEMORY.getDirectBufferAddress(argument)) != 0) {
            int errno = LibC.errno();
            clone.close();
            throw new IOException("FUSE_DEV_IOC_CLONE failed with errno " + errno);
        }
        return clone;
    }

    /**
     * Reads the next request into {@code buffer} from its position 0, which must hold the largest
     * request (max_write plus headers). Returns its length, or -1 once the file system is unmounted.
     */
    int read(ByteBuffer buffer) throws IOException {
        long address = MEMORY.getDirectBufferAddress(buffer);
        while (true) {
            long n = LibC.get().read(fd, address, buffer.capacity());
            if (n >= 0) {
                return (int) n;
            }
            int errno = LibC.errno();
            switch (errno) {
                // ENOENT: the request was interrupted before we read it; EINTR/EAGAIN: read again.
                case Errno.ENOENT, Errno.EINTR, Errno.EAGAIN -> {
                    if (closed) {
                        return -1;
                    }
                }
                case Errno.ENODEV -> {
                    return -1;
                }
                default -> {
                    if (closed) {
                        return -1;
                    }
                    throw new IOException("read from /dev/fuse failed with errno " + errno);
                }
            }
        }
    }

    /**
     * Writes one reply or notification gathered from {@code count} iovecs at {@code iovec}.
     * Returns 0, or the errno: ENOENT means the kernel no longer waits for this reply (its request
     * was interrupted), which is not an error of ours.
     */
    int writev(long iovec, int count) {
        long n = LibC.get().writev(fd, iovec, count);
        return n < 0 ? LibC.errno() : 0;
    }

    /** The address of a direct buffer's first byte, for iovecs. */
    static long address(ByteBuffer direct) {
        return MEMORY.getDirectBufferAddress(direct);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            LibC.get().close(fd);
        }
    }
}
