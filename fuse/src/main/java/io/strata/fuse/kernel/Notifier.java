package io.strata.fuse.kernel;

import io.strata.client.ChangeListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Tells the kernel to drop what it caches of a name or a file that changed behind its back
 * (NOTIFY_INVAL_ENTRY, NOTIFY_INVAL_INODE, NOTIFY_DELETE).
 *
 * <p>Notifications are queued and written by a thread of their own, not by a worker: the kernel
 * takes the directory's lock to drop an entry, and a worker may be serving a request under that
 * very lock, which would then wait for itself. A full queue drops the notification (counted):
 * the cache timeouts still bound how long the kernel keeps the stale entry. The one exception,
 * {@link #attributesChangedNow}, drops attributes only, which takes no lock a request holds.
 */
final class Notifier implements ChangeListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Notifier.class);
    private static final int INVAL_INODE = 2;
    private static final int INVAL_ENTRY = 3;
    private static final int DELETE = 6;
    private static final int QUEUE = 4096;
    /** NOTIFY_INVAL_INODE's offset that drops the attributes and no pages. */
    private static final long ATTRIBUTES_ONLY = -1;

    private final FuseDevice device;
    private final LookupCounts lookups;
    private final BlockingQueue<Notice> queue = new ArrayBlockingQueue<>(QUEUE);
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(4096 + 64).order(ByteOrder.nativeOrder());
    private final ByteBuffer iovec = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
    /** The synchronous invalidation's own: it is written from workers, not the writer thread. */
    private final ByteBuffer ownBuffer = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
    private final ByteBuffer ownIovec = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
    private final Set<Long> changedSinceOpen = ConcurrentHashMap.newKeySet();
    private final LongAdder sent = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final Thread writer;
    private volatile boolean closed;

    /** @param pagesFrom for INVAL_INODE, where the pages to drop start: 0 all, {@link #ATTRIBUTES_ONLY} none */
    private record Notice(int code, long parent, long child, String name, long pagesFrom) {
        static Notice inode(long ino, long pagesFrom) {
            return new Notice(INVAL_INODE, ino, 0, null, pagesFrom);
        }

        static Notice entry(long parent, String name) {
            return new Notice(INVAL_ENTRY, parent, 0, name, 0);
        }

        static Notice delete(long parent, long child, String name) {
            return new Notice(DELETE, parent, child, name, 0);
        }
    }

    Notifier(FuseDevice device, LookupCounts lookups) {
        this.device = device;
        this.lookups = lookups;
        this.writer = new Thread(this::run, "strata-fuse-notify");
        writer.setDaemon(true);
        writer.start();
    }

    /** The name {@code name} in {@code parent} changed (appeared, went, or names another inode). */
    @Override
    public void entryChanged(long parent, String name) {
        if (lookups.known(parent)) {
            offer(Notice.entry(parent, name));
        }
    }

    /** The name {@code name} in {@code parent}, which named {@code child}, is gone. */
    @Override
    public void entryRemoved(long parent, String name, long child) {
        if (lookups.known(parent)) {
            offer(Notice.delete(parent, child, name));
        }
    }

    /** A file's attributes and content changed: its cached attributes and pages go. */
    @Override
    public void contentChanged(long ino) {
        if (lookups.known(ino)) {
            changedSinceOpen.add(ino);
            offer(Notice.inode(ino, 0));
        }
    }

    /**
     * Drops the kernel's cached attributes of {@code ino} now, on the caller's thread, for a change
     * the request being served made and its reply does not carry. Only the attributes: dropping
     * pages waits for their locks, which the request being served may hold. Rare (a write that
     * cleared set-ID bits), so one caller at a time.
     */
    synchronized void attributesChangedNow(long ino) {
        send(Notice.inode(ino, ATTRIBUTES_ONLY), ownBuffer, ownIovec);
    }

    /**
     * Whether {@code ino}'s content changed since the kernel last opened it, forgetting it. An open
     * that finds so is answered without FOPEN_KEEP_CACHE, which drops the kernel's pages before
     * the open returns: the queued NOTIFY_INVAL_INODE could land after the first reads.
     */
    boolean takeChangedSinceOpen(long ino) {
        return changedSinceOpen.remove(ino);
    }

    /** The kernel forgot {@code ino}: nothing of it is cached any more. */
    void forgotten(long ino) {
        changedSinceOpen.remove(ino);
    }

    long sent() {
        return sent.sum();
    }

    long dropped() {
        return dropped.sum();
    }

    private void offer(Notice notice) {
        if (closed || !queue.offer(notice)) {
            dropped.increment();
        }
    }

    private void run() {
        while (!closed) {
            Notice notice;
            try {
                notice = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            send(notice, buffer, iovec);
        }
    }

    private void send(Notice notice, ByteBuffer out, ByteBuffer vector) {
        int errno = write(notice, out, vector);
        // ENOENT: the kernel no longer has that entry or inode, which is what we wanted.
        if (errno != 0 && errno != Errno.ENOENT) {
            log.debug("notification {} for node {} failed with errno {}", notice.code(), notice.parent(), errno);
        } else {
            sent.increment();
        }
    }

    /** Writes {@code notice} to the device through {@code out} and {@code vector}; the errno, 0 if sent. */
    private int write(Notice notice, ByteBuffer out, ByteBuffer vector) {
        out.clear();
        out.position(Replies.OUT_HEADER_SIZE);
        byte[] name = notice.name() == null ? null : notice.name().getBytes(StandardCharsets.UTF_8);
        switch (notice.code()) {
            case INVAL_INODE -> {
                out.putLong(notice.parent());
                out.putLong(notice.pagesFrom());
                out.putLong(0); // length 0: to the end
            }
            case INVAL_ENTRY -> {
                out.putLong(notice.parent());
                out.putInt(name.length);
                out.putInt(0);
                out.put(name).put((byte) 0);
            }
            default -> {
                out.putLong(notice.parent());
                out.putLong(notice.child());
                out.putInt(name.length);
                out.putInt(0);
                out.put(name).put((byte) 0);
            }
        }
        int length = out.position();
        out.putInt(0, length);
        out.putInt(4, notice.code());
        out.putLong(8, 0); // unique 0: a notification, not a reply
        vector.putLong(0, FuseDevice.address(out));
        vector.putLong(8, length);
        return device.writev(FuseDevice.address(vector), 1);
    }

    @Override
    public void close() {
        closed = true;
        writer.interrupt();
    }
}
