package io.strata.fuse.kernel;

import jnr.posix.CmsgHdr;
import jnr.posix.MsgHdr;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import jnr.posix.SpawnFileAction;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Attaches a new FUSE connection at a mountpoint: mount(2) directly when running as root, else
 * through the setuid {@code fusermount3}, which opens {@code /dev/fuse}, mounts, and passes the
 * descriptor back over a socket (SCM_RIGHTS), as libfuse does.
 */
final class KernelMount {
    private static final long MS_RDONLY = 1;
    private static final long MS_NOSUID = 2;
    private static final long MS_NODEV = 4;
    private static final int AF_UNIX = 1;
    private static final int SOCK_STREAM = 1;
    private static final int SOL_SOCKET = 1;
    private static final int SCM_RIGHTS = 1;
    /** The descriptor number fusermount3 is told (_FUSE_COMMFD) to send the device on. */
    private static final int COMM_FD = 3;

    private KernelMount() {}

    static FuseDevice mount(Path mountPoint, KernelSettings settings) throws IOException {
        LibC libc = LibC.get();
        return libc.getuid() == 0 ? mountAsRoot(mountPoint, settings, libc) : mountWithFusermount(mountPoint, settings);
    }

    private static FuseDevice mountAsRoot(Path mountPoint, KernelSettings settings, LibC libc) throws IOException {
        FuseDevice device = FuseDevice.open();
        String data = "fd=" + device.fd() + ",rootmode=40000,user_id=" + libc.getuid() + ",group_id=" + libc.getgid()
                + ",default_permissions,max_read=" + settings.maxRead() + (settings.allowOther() ? ",allow_other" : "");
        long flags = MS_NOSUID | MS_NODEV | (settings.readOnly() ? MS_RDONLY : 0);
        if (libc.mount(settings.fsName(), mountPoint.toString(), "fuse.strata", flags, data) != 0) {
            int errno = LibC.errno();
            device.close();
            throw new IOException("mount(2) of " + mountPoint + " failed with errno " + errno
                    + (errno == 1 ? " (EPERM: mounting needs root or fusermount3)" : ""));
        }
        return device;
    }

    /** The libfuse way for other users: fusermount3 mounts and hands the descriptor over. */
    private static FuseDevice mountWithFusermount(Path mountPoint, KernelSettings settings) throws IOException {
        POSIX posix = POSIXFactory.getNativePOSIX();
        int[] pair = new int[2];
        if (posix.socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
            throw new IOException("socketpair failed with errno " + posix.errno());
        }
        try {
            String options = "fsname=" + settings.fsName() + ",subtype=strata,default_permissions,nosuid,nodev"
                    + ",max_read=" + settings.maxRead() + (settings.allowOther() ? ",allow_other" : "")
                    + (settings.readOnly() ? ",ro" : "");
            List<String> argv = List.of("fusermount3", "-o", options, "--", mountPoint.toString());
            // Only what fusermount3 needs: the daemon's environment holds its options, secrets among them.
            List<String> environment = new ArrayList<>();
            environment.add("PATH=" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            environment.add("_FUSE_COMMFD=" + COMM_FD);
            long pid = posix.posix_spawnp("fusermount3", List.of(SpawnFileAction.dup(pair[1], COMM_FD)), argv,
                    environment);
            if (pid <= 0) {
                throw new IOException("cannot run fusermount3 (apt-get install fuse3): errno " + posix.errno());
            }
            posix.close(pair[1]);
            pair[1] = -1;
            int fd = receiveFd(posix, pair[0]);
            int[] status = new int[1];
            posix.waitpid(pid, status, 0);
            if (fd < 0) {
                throw new IOException("fusermount3 could not mount " + mountPoint + " (exit status "
                        + (status[0] >> 8) + "; its reason is in the log above)");
            }
            return FuseDevice.adopt(fd);
        } finally {
            posix.close(pair[0]);
            if (pair[1] >= 0) {
                posix.close(pair[1]);
            }
        }
    }

    /** The descriptor fusermount3 sends, or -1 if it closed the socket without one (it failed). */
    private static int receiveFd(POSIX posix, int socket) {
        MsgHdr message = posix.allocateMsgHdr();
        message.setIov(new ByteBuffer[] {ByteBuffer.allocateDirect(1)});
        message.allocateControl(4);
        if (posix.recvmsg(socket, message, 0) <= 0) {
            return -1;
        }
        for (CmsgHdr received : message.getControls()) {
            if (received.getLevel() == SOL_SOCKET && received.getType() == SCM_RIGHTS) {
                return received.getData().order(ByteOrder.nativeOrder()).getInt(0);
            }
        }
        return -1;
    }
}
