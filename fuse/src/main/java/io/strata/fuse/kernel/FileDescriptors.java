package io.strata.fuse.kernel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileDescriptor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.channels.FileChannel;

/**
 * The descriptor number behind a {@link FileChannel}, which splice(2) needs and the JDK does not
 * give out: read from the channel's private fields, which {@code java.base} opens to Strata only
 * when asked ({@code Add-Opens} in the jar's manifest; {@code --add-opens} for tests). Without
 * that, {@link #available()} is false and reads are copied as before.
 */
final class FileDescriptors {
    private static final Logger log = LoggerFactory.getLogger(FileDescriptors.class);
    private static final MethodHandle CHANNEL_FD;
    private static final MethodHandle FD_NUMBER;

    static {
        MethodHandle channelFd = null;
        MethodHandle fdNumber = null;
        try {
            Class<?> impl = Class.forName("sun.nio.ch.FileChannelImpl");
            channelFd = MethodHandles.privateLookupIn(impl, MethodHandles.lookup())
                    .findGetter(impl, "fd", FileDescriptor.class);
            fdNumber = MethodHandles.privateLookupIn(FileDescriptor.class, MethodHandles.lookup())
                    .findGetter(FileDescriptor.class, "fd", int.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("file descriptors of channels are not reachable ({}); reads are copied, not spliced",
                    e.toString());
            channelFd = null;
            fdNumber = null;
        }
        CHANNEL_FD = channelFd;
        FD_NUMBER = fdNumber;
    }

    private FileDescriptors() {}

    static boolean available() {
        return CHANNEL_FD != null;
    }

    /** The descriptor of {@code channel} (a file's, opened by {@link FileChannel#open}), or -1. */
    static int of(FileChannel channel) {
        if (CHANNEL_FD == null) {
            return -1;
        }
        try {
            return (int) FD_NUMBER.invokeExact((FileDescriptor) CHANNEL_FD.invoke(channel));
        } catch (Throwable e) {
            return -1;
        }
    }
}
