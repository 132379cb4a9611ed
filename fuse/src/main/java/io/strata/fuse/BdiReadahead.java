package io.strata.fuse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The kernel's readahead window for one mount. The kernel gives a FUSE mount 128 KiB, which cuts
 * sequential buffered reads into 128 KiB requests whatever max_read allows; the mount's backing
 * device info ({@code /sys/class/bdi/MAJOR:MINOR}, the device number in mountinfo) takes a larger
 * one, so they arrive as max_read-sized requests (measured in FUSE-NOTES: 1.7 to 3.1 GiB/s).
 */
final class BdiReadahead {
    private static final Logger log = LoggerFactory.getLogger(BdiReadahead.class);

    private BdiReadahead() {}

    /** Raises the window to {@code bytes} if it is smaller; best effort (root only), never fails. */
    static void raise(Path mountPoint, int bytes) {
        try {
            Optional<MountPoints.Entry> mount = MountPoints.find(mountPoint);
            if (mount.isEmpty()) {
                return;
            }
            Path setting = Path.of("/sys/class/bdi", mount.get().device(), "read_ahead_kb");
            long currentKb = Long.parseLong(Files.readString(setting).trim());
            if (currentKb * 1024 < bytes) {
                Files.writeString(setting, Integer.toString(bytes / 1024));
            }
        } catch (IOException | RuntimeException e) {
            log.debug("kernel readahead of {} left as it is: {}", mountPoint, e.toString());
        }
    }
}
