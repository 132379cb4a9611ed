package io.strata.fuse.kernel;

import io.strata.core.fs.FsError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

/**
 * The INIT handshake: agrees on the protocol's minor version (the lower of the kernel's and
 * {@link #MINOR}) and on the features both sides have, and tells the kernel the request sizes and
 * queue depth Strata serves.
 */
final class Init {
    private static final Logger log = LoggerFactory.getLogger(Init.class);

    static final int MAJOR = 7;
    /** The newest minor whose structs this transport writes; a newer kernel speaks it too. */
    static final int MINOR = 38;
    /** max_pages (7.28) and the 64-byte init reply (7.23) are relied on. */
    static final int OLDEST_MINOR = 28;
    private static final int PAGE_SIZE = 4096;
    /**
     * Requests the kernel keeps in flight in the background (async reads, readahead) before it
     * makes new ones wait; libfuse's default of 12 starves a readahead over a slow store.
     */
    private static final int MAX_BACKGROUND = 64;

    static final int ASYNC_READ = 1;
    static final int ATOMIC_O_TRUNC = 1 << 3;
    static final int BIG_WRITES = 1 << 5;
    static final int AUTO_INVAL_DATA = 1 << 12;
    static final int DO_READDIRPLUS = 1 << 13;
    static final int READDIRPLUS_AUTO = 1 << 14;
    static final int ASYNC_DIO = 1 << 15;
    static final int WRITEBACK_CACHE = 1 << 16;
    static final int PARALLEL_DIROPS = 1 << 18;
    static final int MAX_PAGES = 1 << 22;
    static final int CACHE_SYMLINKS = 1 << 23;
    /**
     * The server clears set-ID bits on write, truncate and chown when the kernel says so
     * (Operations). In return the kernel marks the mount SB_NOSEC: once a file's first write finds
     * no security.capability, its later writes skip the GETXATTR that would otherwise precede every
     * write(2), a round trip each.
     */
    static final int HANDLE_KILLPRIV_V2 = 1 << 28;
    /** fuse_init_in and fuse_init_out carry flags2, the flags' upper 32 bits (7.36). */
    static final int INIT_EXT = 1 << 30;
    /**
     * flags2: a file opened with FOPEN_DIRECT_IO (the {@code direct_io} option) may still be mapped
     * shared; the kernel keeps the mapping's pages coherent with the direct reads and writes.
     * Without it, mmap(MAP_SHARED) of such a file fails with ENODEV (SQLite's mmap, numpy's memmap).
     */
    static final int DIRECT_IO_ALLOW_MMAP = 1 << (36 - 32);

    private final KernelSettings settings;
    private volatile String negotiated = "INIT not received";

    Init(KernelSettings settings) {
        this.settings = settings;
    }

    void reply(Request request, Replies out) {
        int major = request.u32();
        int minor = request.u32();
        int maxReadahead = request.u32();
        int kernelFlags = request.u32();
        int kernelFlags2 = (kernelFlags & INIT_EXT) != 0 ? request.u32() : 0;
        if (major < MAJOR || (major == MAJOR && minor < OLDEST_MINOR)) {
            log.error("the kernel speaks FUSE {}.{}; Strata's transport needs {}.{} or newer (use -o fuse=jnr)",
                    major, minor, MAJOR, OLDEST_MINOR);
            out.error(request, FsError.EINVAL.errno());
            return;
        }
        if (major > MAJOR) {
            // The kernel then sends INIT again with our major.
            ByteBuffer b = out.begin();
            b.putInt(MAJOR);
            b.putInt(MINOR);
            out.send(request);
            return;
        }
        int wanted = ASYNC_READ | ATOMIC_O_TRUNC | BIG_WRITES | DO_READDIRPLUS | READDIRPLUS_AUTO | ASYNC_DIO
                | PARALLEL_DIROPS | MAX_PAGES | CACHE_SYMLINKS | HANDLE_KILLPRIV_V2 | INIT_EXT
                | (settings.autoInvalData() ? AUTO_INVAL_DATA : 0)
                | (settings.writebackCache() ? WRITEBACK_CACHE : 0);
        int flags = wanted & kernelFlags;
        int flags2 = DIRECT_IO_ALLOW_MMAP & kernelFlags2;
        int agreedMinor = Math.min(minor, MINOR);
        int maxPages = Math.max(1, Math.max(settings.maxRead(), settings.maxWrite()) / PAGE_SIZE);
        // The kernel sets the mount's readahead window to the smaller of the window its bdi has when
        // this reply arrives and the one the reply names. It offers its default (128 KiB), and
        // echoing that undid BdiReadahead's raise to max_read whenever the raise came first (2 of 12
        // mounts: streams then arrived as 128 KiB requests). Naming max_read keeps either order.
        int readahead = Math.max(maxReadahead, settings.maxRead());
        ByteBuffer b = out.begin();
        b.putInt(MAJOR);
        b.putInt(agreedMinor);
        b.putInt(readahead);
        b.putInt(flags);
        b.putShort((short) MAX_BACKGROUND);
        b.putShort((short) (MAX_BACKGROUND * 3 / 4));
        b.putInt(settings.maxWrite());
        b.putInt(1); // time_gran: nanosecond timestamps
        b.putShort((short) maxPages);
        b.putShort((short) 0); // map_alignment
        b.putInt(flags2);
        for (int i = 0; i < 7; i++) {
            b.putInt(0);
        }
        out.send(request);
        negotiated = String.format("FUSE %d.%d (kernel %d.%d), flags 0x%x of wanted 0x%x, flags2 0x%x, max_write %d,"
                        + " max_pages %d, max_readahead %d (offered %d)", MAJOR, agreedMinor, major, minor, flags, wanted,
                flags2, settings.maxWrite(), maxPages, readahead, maxReadahead);
        log.info("kernel connection: {}", negotiated);
    }

    String describe() {
        return negotiated;
    }
}
