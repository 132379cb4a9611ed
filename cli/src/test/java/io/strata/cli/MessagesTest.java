package io.strata.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MessagesTest {
    @Test
    void bareNioPathsGetTheirMeaning() {
        assertEquals("no such file or directory: /proc/x", Messages.describe(new NoSuchFileException("/proc/x")));
        assertEquals("permission denied: /root/x", Messages.describe(new AccessDeniedException("/root/x")));
        assertEquals("/a: Read-only file system",
                Messages.describe(new FileSystemException("/a", null, "Read-only file system")));
        assertEquals("disk full", Messages.describe(new IOException("disk full")));
        assertEquals("IOException", Messages.describe(new IOException()));
    }
}
