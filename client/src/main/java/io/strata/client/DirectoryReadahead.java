package io.strata.client;

import io.strata.core.concurrent.DaemonThreads;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Fetches a directory's next small files into the cache ahead of a reader that opens its files
 * one after another in name order: cp -r, tar, rsync, grep -r, a loader reading shards in turn.
 * Each such file is a request to the object store that the reader would otherwise wait for, one
 * after another; fetched ahead, several are in flight at once and the reader finds them cached.
 *
 * <p>The order is seen, not guessed. An open counts as in order when its file is the first file
 * after the one opened last in the same directory (the metastore's name order), and fetching
 * starts at the second open in a row. From then on it stays {@code window} files ahead of the
 * reader, topped up half a window at a time (a listing read per half window). An open out of
 * order stops it until the order shows again: a reader that jumps around is left to each file's
 * own readahead. Only files of a page or less are fetched (a larger file's readahead starts when
 * it is opened), only what the cache lacks, and only through a bounded pool that drops what it
 * cannot queue; a fetch that fails is forgotten, and the reader's own read fetches the file.
 */
final class DirectoryReadahead implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DirectoryReadahead.class);
    /** Fetches in flight at once, across directories: a window's worth for one reader. */
    private static final int FETCHERS = 8;
    /** Directories followed at once; a scan unused for {@link #FORGET_AFTER} is dropped. */
    private static final int SCANS = 1024;
    private static final Duration FORGET_AFTER = Duration.ofMinutes(1);

    private final MetaStore meta;
    private final Namespace namespace;
    private final UnderFileSystem ufs;
    private final DataCache cache;
    private final int window;
    private final Counter fetched;
    private final Cache<Long, Scan> scans = Caffeine.newBuilder()
            .maximumSize(SCANS)
            .expireAfterAccess(FORGET_AFTER)
            .build();
    private final ThreadPoolExecutor fetchers;

    /** What a directory's reader has opened: the last file, and the files fetched ahead of it. */
    private static final class Scan {
        String last;
        final ArrayDeque<String> ahead = new ArrayDeque<>();
    }

    /** @param window files fetched ahead of a directory's reader; 0 for none */
    DirectoryReadahead(MetaStore meta, Namespace namespace, UnderFileSystem ufs, DataCache cache, int window,
                       MeterRegistry meters) {
        this.meta = requireNonNull(meta, "meta is null");
        this.namespace = requireNonNull(namespace, "namespace is null");
        this.ufs = requireNonNull(ufs, "ufs is null");
        this.cache = requireNonNull(cache, "cache is null");
        if (window < 0) {
            throw new IllegalArgumentException("window must not be negative: " + window);
        }
        this.window = window;
        this.fetched = Counter.builder("strata.readahead.files")
                .description("Small files fetched into the cache ahead of a reader opening a directory's files in order")
                .register(meters);
        this.fetchers = new ThreadPoolExecutor(FETCHERS, FETCHERS, 10, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(FETCHERS * 8), DaemonThreads.numbered("strata-dir-readahead"),
                new ThreadPoolExecutor.DiscardPolicy());
        fetchers.allowCoreThreadTimeOut(true);
    }

    /**
     * A file was opened for reading: follows its directory's reader, and fetches ahead of it.
     * Never fails the open: what goes wrong here only leaves the files to their reader.
     */
    void opened(Inode file) {
        if (window == 0 || !cache.enabled() || !file.isFile() || file.parent() <= 0) {
            return;
        }
        try {
            if (!ufs.remote()) {
                return;
            }
            for (Inode inode : follow(file.parent(), file.name())) {
                if (worthFetching(inode)) {
                    fetchers.execute(() -> fetch(inode));
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("cannot read directory {} ahead of its reader", file.parent(), e);
        }
    }

    /** Records the open of {@code name} in {@code dir}; returns the files newly ahead of the reader. */
    private List<Inode> follow(long dir, String name) throws IOException {
        Scan scan = scans.get(dir, d -> new Scan());
        synchronized (scan) {
            String last = scan.last;
            scan.last = name;
            if (last == null) {
                return List.of();
            }
            if (!scan.ahead.isEmpty()) {
                if (!scan.ahead.peekFirst().equals(name)) {
                    scan.ahead.clear(); // out of order: wait for the order to show again
                    return List.of();
                }
                scan.ahead.pollFirst();
                if (scan.ahead.size() > window / 2) {
                    return List.of();
                }
                String after = scan.ahead.isEmpty() ? name : scan.ahead.peekLast();
                return enqueue(scan, filesAfter(dir, after, window - scan.ahead.size()));
            }
            // Nothing ahead: in order if it is the first file after the last one; one listing read
            // both tells and gives the window beyond it.
            List<DirectoryEntry> files = filesAfter(dir, last, window + 1);
            if (files.isEmpty() || !files.get(0).dentry().name().equals(name)) {
                return List.of();
            }
            return enqueue(scan, files.subList(1, files.size()));
        }
    }

    /** Adds {@code files} to the scan's window, in order; returns their inodes. */
    private static List<Inode> enqueue(Scan scan, List<DirectoryEntry> files) {
        List<Inode> next = new ArrayList<>(files.size());
        for (DirectoryEntry entry : files) {
            scan.ahead.add(entry.dentry().name());
            next.add(entry.inode());
        }
        return next;
    }

    /** The regular files among the (at most {@code limit}) entries of {@code dir} after {@code after}. */
    private List<DirectoryEntry> filesAfter(long dir, String after, int limit) throws IOException {
        List<DirectoryEntry> files = new ArrayList<>(limit);
        for (DirectoryEntry entry : meta.readdirPlus(dir, after, limit)) {
            if (entry.inode().isFile()) {
                files.add(entry);
            }
        }
        return files;
    }

    /** A small file with a recorded version, not all in the cache yet. */
    private boolean worthFetching(Inode file) {
        return file.size() > 0 && file.size() <= cache.pageSize() && file.ufsVersion() != null
                && cache.cachedBytes(file.ino(), file.ufsVersion(), file.size()) < file.size();
    }

    /** Reads the file through the cache, as its reader would, which stores it there. */
    private void fetch(Inode file) {
        try {
            try (UfsFile data = ufs.openRecorded(namespace.dataPath(file), file.ufsVersion(), file.size())) {
                cache.read(data, file.ino(), file.ufsVersion(), file.size(), ByteBuffer.allocate((int) file.size()), 0, null);
            }
            fetched.increment();
        } catch (IOException | RuntimeException e) {
            log.debug("reading inode {} ahead of its reader failed; its reader will fetch it", file.ino(), e);
        }
    }

    @Override
    public void close() {
        fetchers.shutdownNow();
        try {
            if (!fetchers.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("directory readahead still fetching after 5 s at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
