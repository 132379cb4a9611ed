package io.strata.fuse.kernel;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.intptr_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;
import jnr.ffi.types.u_int64_t;

/**
 * The few libc calls the transport and {@link CompilerThreads} make, bound through jnr-ffi (already
 * on the classpath for the jnr-fuse transport). The transport's buffers are passed as raw addresses
 * of direct buffers the caller owns, so a request or reply is never copied or pinned on the Java
 * side (the affinity masks are small arrays jnr-ffi copies). Public only because jnr-ffi implements
 * it in a class loader of its own; nothing outside this package uses it.
 */
public interface LibC {
    int O_RDWR = 02;
    int O_NONBLOCK = 04000;
    int O_CLOEXEC = 02000000;

    int open(String path, int flags);

    int close(int fd);

    @ssize_t long read(int fd, @intptr_t long buffer, @size_t long count);

    @ssize_t long writev(int fd, @intptr_t long iovec, int count);

    int ioctl(int fd, @u_int64_t long request, @intptr_t long argument);

    @ssize_t long write(int fd, @intptr_t long buffer, @size_t long count);

    int pipe2(@Out int[] fds, int flags);

    int fcntl(int fd, int command, int argument);

    int mount(String source, String target, String type, @u_int64_t long flags, String data);

    int umount2(String target, int flags);

    int getuid();

    int getgid();

    /** The CPUs thread {@code tid} (0: the caller) may run on, a bit per CPU. */
    int sched_getaffinity(int tid, @size_t long maskBytes, @Out long[] mask);

    int sched_setaffinity(int tid, @size_t long maskBytes, @In long[] mask);

    /** The loaded library and the runtime its errno is read from. */
    final class Holder {
        static final LibC LIBC = LibraryLoader.create(LibC.class).load("c");
        static final Runtime RUNTIME = Runtime.getRuntime(LIBC);

        private Holder() {}
    }

    static LibC get() {
        return Holder.LIBC;
    }

    /** errno of the calling thread's last call through {@link #get()}. */
    static int errno() {
        return Holder.RUNTIME.getLastError();
    }
}
