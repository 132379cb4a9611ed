package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With {@code direct_io} the kernel's page cache is bypassed for reads and writes, and without
 * more a shared mapping of such a file fails (ENODEV). Strata's own transport asks for
 * FUSE_DIRECT_IO_ALLOW_MMAP, so programs that map their files (SQLite's mmap, numpy's memmap)
 * work there, and what they write through the mapping is what read(2) and the source see.
 */
class DirectIoMmapTest {
    @TempDir
    static Path base;
    static MountedVolume volume;

    @BeforeAll
    static void mount() throws IOException {
        assumeTrue(Transport.current() == Transport.KERNEL, "fuse=kernel only: libfuse2 cannot ask for it");
        volume = MountedVolume.under(base, "direct_io=true").mount();
    }

    @AfterAll
    static void unmount() throws IOException {
        if (volume != null) {
            volume.close();
        }
    }

    @Test
    void aSharedMappingOfADirectIoFileWritesThrough() throws IOException {
        Path file = volume.dir("mapped").resolve("f");
        Files.write(file, new byte[8192]);

        assertEquals("OK", Shell.errnoOf("""
                import mmap
                fd = os.open(a, os.O_RDWR)
                m = mmap.mmap(fd, 8192)
                m[100:105] = b'hello'
                m.flush()
                m.close()
                os.close(fd)""", file));
        assertEquals("hello", new String(Files.readAllBytes(file), 100, 5, US_ASCII));
        assertEquals("hello", new String(Files.readAllBytes(volume.inSource(file)), 100, 5, US_ASCII));
    }
}
