package io.strata.fuse.kernel;

import com.kenai.jffi.CallContext;
import com.kenai.jffi.CallingConvention;
import com.kenai.jffi.Invoker;
import com.kenai.jffi.LastError;
import com.kenai.jffi.Library;
import com.kenai.jffi.Type;

/**
 * splice(2), called through jffi rather than {@link LibC}: jnr-ffi's generated x86-64 stub passed
 * this six-argument call's last argument (the flags) with garbage in it, and the kernel answered
 * EINVAL to every call (seen with strace; with {@code jnr.ffi.asm.enabled=false} the same binding
 * worked, at the cost of every other call's speed).
 */
final class Splice {
    private static final long FUNCTION = Library.getDefault().getSymbolAddress("splice");
    private static final CallContext CONTEXT = CallContext.getCallContext(Type.SLONG,
            new Type[] {Type.SINT, Type.POINTER, Type.SINT, Type.POINTER, Type.ULONG, Type.UINT},
            CallingConvention.DEFAULT, true);

    private Splice() {}

    /** Whether the C library has splice. */
    static boolean available() {
        return FUNCTION != 0;
    }

    /**
     * Moves up to {@code length} bytes from {@code fdIn} to {@code fdOut}; {@code offIn} and
     * {@code offOut} are addresses of loff_t offsets, or 0 for a pipe's. The count, or -1 with
     * {@link #errno()} set.
     */
    static long splice(int fdIn, long offIn, int fdOut, long offOut, long length, int flags) {
        return Invoker.getInstance().invokeN6(CONTEXT, FUNCTION, fdIn, offIn, fdOut, offOut, length, flags);
    }

    /** errno of this thread's last {@link #splice}. */
    static int errno() {
        return LastError.getInstance().get();
    }
}
