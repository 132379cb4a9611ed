package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code -o xattr=false}: xattr calls are refused once by ENOSYS (ENOTSUP to callers); the rest works. */
class XattrOffTest {
    @TempDir
    static Path base;
    static MountedVolume volume;

    @BeforeAll
    static void mount() throws IOException {
        assumeTrue(Transport.current() == Transport.KERNEL, "fuse=kernel only");
        volume = MountedVolume.under(base, "xattr=false").mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (volume != null) {
            volume.close();
        }
    }

    @Test
    void xattrCallsAreNotSupported() throws IOException {
        Path file = Files.writeString(volume.path("f"), "x");
        assertEquals("ENOTSUP", Shell.errnoOf("os.setxattr(a, 'user.k', b'v')", file));
        assertEquals("ENOTSUP", Shell.errnoOf("os.getxattr(a, 'user.k')", file));
        assertEquals("ENOTSUP", Shell.errnoOf("os.listxattr(a)", file));
    }

    @Test
    void longListingsStillWork() throws IOException {
        Files.writeString(volume.path("g"), "hello");
        Shell.Result listing = Shell.sh(volume.path(""), "ls -l g").assertOk();
        assertTrue(listing.out().contains(" 5 "), listing.out());
    }
}
