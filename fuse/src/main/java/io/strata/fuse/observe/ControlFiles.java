package io.strata.fuse.observe;

import io.strata.client.metrics.StrataMeters;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * {@code .stats} and {@code .accesslog} in the mount's root: answered by the daemon, never by the
 * metastore, and never listed (a name in the volume that is the same is hidden behind them, as in
 * JuiceFS). Both are read-only and opened for direct I/O, so every read reaches the daemon and the
 * size they report (0) does not end a read early.
 *
 * <p>{@code .stats} is rendered once per open, so a reader sees one consistent snapshot. A read of
 * {@code .accesslog} waits up to {@link #ACCESS_LOG_WAIT_MS} for lines and answers a {@code #} line
 * when none came, so that {@code cat} keeps reading instead of taking an empty read for the end.
 */
public final class ControlFiles {
    /** The control files' inode numbers: far above any a metastore hands out. */
    public static final long STATS_INO = Long.MAX_VALUE - 1;
    public static final long ACCESS_LOG_INO = Long.MAX_VALUE - 2;
    static final long ACCESS_LOG_WAIT_MS = 1000;
    /** The daemon's own user and group: /proc/self belongs to them. */
    private static final int OWNER_UID = owner("unix:uid");
    private static final int OWNER_GID = owner("unix:gid");
    /** What an idle read of the access log answers: a comment line, which readers skip. */
    private static final byte[] KEEPALIVE = {'#', '\n'};

    /** The two files. */
    public enum ControlFile {
        STATS(".stats", STATS_INO),
        ACCESS_LOG(".accesslog", ACCESS_LOG_INO);

        private final String fileName;
        private final long ino;

        ControlFile(String fileName, long ino) {
            this.fileName = fileName;
            this.ino = ino;
        }

        public String fileName() {
            return fileName;
        }

        public long ino() {
            return ino;
        }
    }

    private final StrataMeters meters;
    private final AccessLog accessLog;
    private final ConcurrentMap<Long, Open> opens = new ConcurrentHashMap<>();
    private final long mountedNs = System.currentTimeMillis() * 1_000_000L;
    private final AtomicLong nextHandle = new AtomicLong(1);

    public ControlFiles(StrataMeters meters, AccessLog accessLog) {
        this.meters = requireNonNull(meters, "meters is null");
        this.accessLog = requireNonNull(accessLog, "accessLog is null");
    }

    /** The control file of that name in the root, if it is one. */
    public static Optional<ControlFile> byName(String name) {
        for (ControlFile file : ControlFile.values()) {
            if (file.fileName.equals(name)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    /** The control file with that inode number, if it is one. */
    public static Optional<ControlFile> byIno(long ino) {
        if (ino == STATS_INO) {
            return Optional.of(ControlFile.STATS);
        }
        return ino == ACCESS_LOG_INO ? Optional.of(ControlFile.ACCESS_LOG) : Optional.empty();
    }

    public static boolean isControl(long ino) {
        return ino == STATS_INO || ino == ACCESS_LOG_INO;
    }

    /**
     * The file's attributes: empty, timed at the mount, owned by the daemon's user. {@code .stats}
     * is readable by everyone (counts and rates only); {@code .accesslog} only by its owner, since
     * it names every file every user touches (with allow_other, other users' too).
     */
    public Inode inode(ControlFile file) {
        int mode = file == ControlFile.ACCESS_LOG ? 0400 : 0444;
        return new Inode(file.ino(), InodeType.FILE, mode, OWNER_UID, OWNER_GID, mountedNs, mountedNs, mountedNs, 1,
                0, 0, Inode.ROOT, file.fileName(), null, Inode.NEVER_SYNCED);
    }

    private static int owner(String attribute) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), attribute);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** One open of a control file. */
    private sealed interface Open permits StatsSnapshot, LogTail {}

    private record StatsSnapshot(byte[] text) implements Open {}

    private record LogTail(AccessLog.Reader reader) implements Open {}

    /** Opens {@code file} for reading; the handle is this class's, in a space of its own. */
    public long open(ControlFile file) {
        Open open = switch (file) {
            case STATS -> new StatsSnapshot(StatsText.render(meters).getBytes(StandardCharsets.UTF_8));
            case ACCESS_LOG -> new LogTail(accessLog.attach());
        };
        long handle = nextHandle.getAndIncrement();
        opens.put(handle, open);
        return handle;
    }

    /**
     * Reads from an open control file into {@code dst} (up to its remaining bytes); returns the bytes
     * put, 0 at the end of {@code .stats}, or -1 if the handle is not open.
     */
    public int read(long handle, long offset, ByteBuffer dst) throws InterruptedException {
        Open open = opens.get(handle);
        if (open == null) {
            return -1;
        }
        if (open instanceof StatsSnapshot stats) {
            if (offset >= stats.text().length) {
                return 0;
            }
            int n = (int) Math.min(dst.remaining(), stats.text().length - offset);
            dst.put(stats.text(), (int) offset, n);
            return n;
        }
        int n = ((LogTail) open).reader().read(dst, ACCESS_LOG_WAIT_MS, TimeUnit.MILLISECONDS);
        if (n == 0 && dst.remaining() >= KEEPALIVE.length) {
            dst.put(KEEPALIVE);
            return KEEPALIVE.length;
        }
        return n;
    }

    public void release(long handle) {
        Open open = opens.remove(handle);
        if (open instanceof LogTail tail) {
            tail.reader().close();
        }
    }

    public AccessLog accessLog() {
        return accessLog;
    }
}
