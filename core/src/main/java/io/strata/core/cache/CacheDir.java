package io.strata.core.cache;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.strata.core.cache.evict.EvictionPolicy;
import io.strata.core.io.PageCacheWrites;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import java.util.zip.CRC32C;

import static java.util.Objects.requireNonNull;

/**
 * One cache directory of the disk tier: its page files, their index, its quota.
 *
 * <p>Layout: {@code <dir>/pages/<hh>/<file>-<index>-<page size>.page}, where {@code file} is 32
 * hex digits of the SHA-256 of the page's file key and version, and {@code hh} spreads a file's
 * pages over the fan-out directories, 64 consecutive pages to each ({@link #pathOf});
 * {@code <dir>/staging/} holds pages being
 * written; {@code <dir>/.lock} is held (flock) by the one process using the directory. A page is
 * written to {@code staging/} and renamed into place, so a crash leaves whole pages or staging
 * leftovers, which the next open deletes. Pages are not fsynced: after a power loss a page may
 * be short or garbage, which its checksums catch.
 *
 * <p>Opening takes the lock and prepares the layout; {@link #restore} then rebuilds the index
 * by reading every page's header (not its data), oldest modification first into the eviction
 * order. The two are apart so that the lock is decided when the store opens (the first opener
 * wins) while the slow part can run on another thread. Space is reserved before a page is written, by
 * evicting the policy's victims until the page fits both the quota and the file system's free
 * space floor ({@code free_space_ratio}); so the directory never holds more than its quota.
 *
 * <p>A directory that cannot be created, locked or written is <em>unusable</em>: every put is
 * declined (reads of pages already indexed still work) with one warning, and it is tried again
 * after {@link #RETRY}. One lock guards the index, the accounting and the renames and deletes
 * that change which files exist, so the index always matches the files; page data is written
 * and read outside it.
 *
 * <p>Page files are held open across reads, up to a bound ({@link OpenPageFiles}). A file removed
 * from outside Strata therefore keeps serving its (checked) bytes until its handle leaves the
 * bound; one that Strata evicts or drops is closed as soon as its last read is done.
 */
final class CacheDir {
    private static final Logger log = LoggerFactory.getLogger(CacheDir.class);
    static final Duration RETRY = Duration.ofSeconds(30);
    private static final String SUFFIX = ".page";
    private static final int FANOUT = 256;
    /** Consecutive pages of a file that share a fan-out directory: few directories for a stream, all 256 for a large file. */
    private static final int PAGES_PER_FANOUT = 64;
    /** Chunks read to be checked before they are copied out (reads that do not cover whole chunks). */
    private static final BufferPool SCRATCH = new BufferPool(32, size -> ByteBuffer.allocateDirect(Math.max(size, 64 << 10)));
    /** Bytes a direct write stages at a time (a multiple of the alignment). */
    private static final int STAGE = 1 << 20;
    private static final BufferPool STAGES = new BufferPool(4,
            size -> ByteBuffer.allocateDirect(size + PageFile.ALIGNMENT).alignedSlice(PageFile.ALIGNMENT));
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(PageFile.ALIGNMENT).asReadOnlyBuffer();
    /** Bytes read per system call on the direct path: small enough to checksum while cached. */
    private static final int READ_GROUP = 256 << 10;
    /**
     * Page files a directory keeps open for reads: the 1 GiB that random reads of one large file
     * commonly cover at the default page size (1 MiB), or an eighth of the process's descriptor
     * limit if that is less, so that sockets and the files users open are never refused for them.
     */
    private static final int OPEN_FILES = openFilesBound();
    /**
     * A read of part of a page slower than this, plus its bytes at 4 GB/s, waited on the disk:
     * from the page cache, a 4 KiB read and its check take 1-3 µs here, from the disk 100 µs or more.
     */
    private static final long SLOW_READ_NS = 50_000;
    /** How soon a page file read back whole ({@link PageFileWarmer}) may be asked for again. */
    private static final long WARM_AGAIN_NS = Duration.ofSeconds(10).toNanos();

    private final Path root;
    private final Path pages;
    private final Path staging;
    /**
     * Names the page files being written in {@link #staging}, which this directory's lock keeps to
     * this store and whose leftovers it deletes on opening: a counter is unique there. (A random
     * UUID per page drew on SecureRandom, whose SHA-1 mixing the JIT then compiled on the fill path.)
     */
    private final AtomicLong stagingNames = new AtomicLong();
    private final long quota;
    private final double freeSpaceRatio;
    private final EvictionPolicy policy;
    private final CacheMetrics.Tier meters;
    private final DiskSpace space;
    private final LongSupplier nanoClock;
    private final Object lock = new Object();
    private final Map<PageId, Entry> index = new HashMap<>();
    private final Set<PageId> writing = new HashSet<>();
    private final OpenPageFiles openFiles = new OpenPageFiles(OPEN_FILES);
    private final PageFileWarmer warmer;
    /** The file digests of recent page names: most names are of a file whose pages came just before. */
    private final LoadingCache<FileVersion, String> fileDigests = Caffeine.newBuilder().maximumSize(1024)
            .build(CacheDir::fileDigest);
    private long used;
    private long reserved;
    private boolean usable;
    private boolean scanned;
    private boolean failedBefore;
    private boolean closed;
    private long retryAtNs;
    private boolean warnedFull;
    /** Whether pages are written with O_DIRECT: decided when the directory is prepared, off after a failure. */
    private volatile boolean directWrites;
    /** Below the free space floor with nothing left to evict: declines pages until then. */
    private long fullUntilNs;
    private FileChannel lockChannel;
    private FileLock fileLock;

    CacheDir(Path root, long quota, double freeSpaceRatio, EvictionPolicy policy, CacheMetrics.Tier meters,
             DiskSpace space, LongSupplier nanoClock) {
        this.root = requireNonNull(root, "root is null").toAbsolutePath().normalize();
        this.pages = this.root.resolve("pages");
        this.staging = this.root.resolve("staging");
        this.quota = quota;
        this.freeSpaceRatio = freeSpaceRatio;
        this.policy = requireNonNull(policy, "policy is null");
        this.meters = requireNonNull(meters, "meters is null");
        this.space = requireNonNull(space, "space is null");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.warmer = new PageFileWarmer("strata-page-warmer-" + this.root.getFileName());
        synchronized (lock) {
            ensureUsableLocked(false);
        }
    }

    /**
     * Rebuilds the index from the pages the directory holds, if it is usable and has not been
     * restored; a directory that becomes usable later is restored when it does.
     */
    void restore() {
        synchronized (lock) {
            if (usable && !scanned) {
                scan();
                scanned = true;
            }
        }
    }

    Path root() {
        return root;
    }

    long quota() {
        return quota;
    }

    boolean usable() {
        synchronized (lock) {
            return usable;
        }
    }

    /** Whether a put could store a page now (usable, or due for a retry; not known to be full). */
    boolean accepting() {
        synchronized (lock) {
            return ensureUsableLocked() && (!warnedFull || nanoClock.getAsLong() - fullUntilNs >= 0);
        }
    }

    // ---- reads ------------------------------------------------------------------------------

    /** Whether the page is indexed here; counts as an access for the eviction order. */
    boolean contains(PageId id) {
        synchronized (lock) {
            return index.containsKey(id);
        }
    }

    int length(PageId id) {
        synchronized (lock) {
            Entry e = index.get(id);
            return e == null ? -1 : e.dataLength;
        }
    }

    /**
     * True, once, when the bytes read from the page since it was stored here (or since this last
     * looked) reach {@code threshold} within {@code withinNs} nanoseconds. Each time the count
     * reaches the threshold it starts from zero again, hot or not: a page read too slowly must
     * earn its promotion anew.
     */
    boolean takeHot(PageId id, long threshold, LongSupplier withinNs) {
        synchronized (lock) {
            Entry e = index.get(id);
            if (e == null || e.bytesRead < threshold) {
                return false;
            }
            long now = nanoClock.getAsLong();
            boolean hot = now - e.heatSinceNs <= withinNs.getAsLong();
            e.bytesRead = 0;
            e.heatSinceNs = now;
            return hot;
        }
    }

    /**
     * Gives back heat {@link #takeHot} took when the promotion it called for could not start (the
     * fill pool was busy): the page's count of bytes read is raised to {@code bytes}, so it needs
     * only the rest of its heat, not all of it anew. False if the page is not here.
     */
    boolean keepHot(PageId id, long bytes) {
        synchronized (lock) {
            Entry e = index.get(id);
            if (e == null) {
                return false;
            }
            e.bytesRead = Math.max(e.bytesRead, bytes);
            return true;
        }
    }

    /**
     * See {@link PageStore#read(PageId, int, ByteBuffer, Reread)}; a damaged or vanished page is
     * dropped and reported as a miss.
     */
    int read(PageId id, int pageOffset, ByteBuffer dst, Reread reread) {
        return read(id, pageOffset, dst, true, reread);
    }

    /** The whole page into {@code dst} for a promotion: as a read, but no access and no heat. */
    int copy(PageId id, ByteBuffer dst) {
        return read(id, 0, dst, false, Reread.LATER);
    }

    /**
     * @param reader whether a reader asks (it counts as an access and towards the page's heat),
     *               or the store itself copies the page (a promotion)
     */
    private int read(PageId id, int pageOffset, ByteBuffer dst, boolean reader, Reread reread) {
        Entry e;
        synchronized (lock) {
            if (reader) {
                policy.onAccess(id);
            }
            e = index.get(id);
            if (e == null) {
                return -1;
            }
            if (reader) {
                e.bytesRead += Math.max(0, Math.min(dst.remaining(), e.dataLength - pageOffset));
            }
        }
        int start = dst.position();
        String problem;
        try (OpenPageFiles.Handle file = openFiles.open(e.path)) {
            FileChannel channel = file.channel();
            PageFile.Header header = header(e, channel);
            if (header == null) {
                problem = "bad header";
            } else {
                int n = Math.min(dst.remaining(), header.dataLength() - pageOffset);
                if (n <= 0) {
                    return 0;
                }
                long startNs = nanoClock.getAsLong();
                problem = readVerified(channel, header, pageOffset, n, dst);
                if (problem == null) {
                    e.checked(header).mark(pageOffset / header.chunkSize(), (pageOffset + n - 1) / header.chunkSize());
                    if (reread == Reread.SOON && n < header.dataLength()) {
                        warmIfSlow(e, n, nanoClock.getAsLong() - startNs);
                    }
                    return n;
                }
            }
        } catch (NoSuchFileException missing) {
            dst.position(start);
            dropDamaged(e, null);
            return -1;
        } catch (IOException ioe) {
            problem = ioe.toString();
        }
        dst.position(start);
        dropDamaged(e, problem);
        return -1;
    }

    /**
     * See {@link PageStore#region}: the chunks the region touches that are not known to be sound
     * (those of a page found on disk that no read has checked yet) are read and checked first, once
     * per chunk, as {@link #read} would; the rest, and every chunk of a page written here, are lent
     * without reading them. A damaged or vanished page is dropped, and null returned as for a miss.
     */
    PageRegion region(PageId id, int pageOffset, int length, Reread reread) {
        Entry e;
        synchronized (lock) {
            policy.onAccess(id);
            e = index.get(id);
            if (e == null) {
                return null;
            }
            e.bytesRead += Math.max(0, Math.min(length, e.dataLength - pageOffset));
        }
        OpenPageFiles.Handle file = null;
        String problem;
        try {
            file = openFiles.open(e.path);
            FileChannel channel = file.channel();
            // Timed from the header's first read: for a page written here (its chunks lent unread),
            // the only read that can tell whether the page file is still on the disk alone.
            long startNs = nanoClock.getAsLong();
            PageFile.Header header = header(e, channel);
            if (header == null) {
                problem = "bad header";
            } else {
                int n = Math.max(0, Math.min(length, header.dataLength() - pageOffset));
                problem = n == 0 ? null : checkUnchecked(channel, header, e.checked(header), pageOffset, n);
                if (problem == null) {
                    if (reread == Reread.SOON && n > 0 && n < header.dataLength()) {
                        warmIfSlow(e, n, nanoClock.getAsLong() - startNs);
                    }
                    OpenPageFiles.Handle lent = file;
                    file = null;
                    return new PageRegion(channel, (long) header.headerLength() + pageOffset, n, lent::close);
                }
            }
        } catch (NoSuchFileException missing) {
            problem = null;
        } catch (IOException ioe) {
            problem = ioe.toString();
        } finally {
            if (file != null) {
                file.close();
            }
        }
        dropDamaged(e, problem);
        return null;
    }

    /** The page file's header, read and checked against the index on the first read; null if it does not match. */
    private static PageFile.Header header(Entry e, FileChannel channel) throws IOException {
        PageFile.Header header = e.header;
        if (header == null) {
            ByteBuffer headerBytes = ByteBuffer.allocate(e.headerLength);
            header = readFully(channel, headerBytes, 0) ? PageFile.parse(headerBytes.flip()) : null;
            if (header != null && header.id().equals(e.id) && header.dataLength() == e.dataLength
                    && header.headerLength() == e.headerLength) {
                e.header = header;
            } else {
                header = null;
            }
        }
        return header;
    }

    /**
     * Reads and checks each chunk of {@code [offset, offset + n)} not checked before, and marks it;
     * null if all is well.
     */
    private static String checkUnchecked(FileChannel channel, PageFile.Header header, CheckedChunks checked,
                                         int offset, int n) throws IOException {
        int chunk = header.chunkSize();
        int last = (offset + n - 1) / chunk;
        for (int c = checked.firstUnchecked(offset / chunk, last); c <= last; c = checked.firstUnchecked(c, last)) {
            int runEnd = checked.lastUnchecked(c, last);
            String problem = readChecked(channel, header, c, runEnd, (bytes, bytesStart, bytesEnd) -> { });
            if (problem != null) {
                return problem;
            }
            checked.mark(c, runEnd);
            c = runEnd + 1;
        }
        return null;
    }

    /**
     * Has the page file read back whole in the background if this read of part of it, by a reader
     * that jumps around ({@link Reread#SOON}), waited on the disk. A stream's reads are left to the
     * kernel, which reads ahead of them in the page file; warming their pages only doubled the
     * copies of a `cat` from the disk tier.
     */
    private void warmIfSlow(Entry e, int n, long tookNs) {
        if (tookNs < SLOW_READ_NS + n / 4) {
            return;
        }
        long now = nanoClock.getAsLong();
        long asked = e.warmAskedNs;
        if (asked != 0 && now - asked < WARM_AGAIN_NS) {
            return;
        }
        if (warmer.warm(e.path)) {
            e.warmAskedNs = now;
            meters.pagesWarmed.increment();
        }
    }

    /** Reads {@code n} page bytes from {@code offset} into dst, checking every chunk they touch; null if all is well. */
    private static String readVerified(FileChannel channel, PageFile.Header header, int offset, int n, ByteBuffer dst)
            throws IOException {
        int chunk = header.chunkSize();
        int end = offset + n;
        int first = offset / chunk;
        int last = (end - 1) / chunk;
        int start = dst.position();
        if (offset % chunk == 0 && (end % chunk == 0 || end == header.dataLength())) {
            // Straight into dst, a group of chunks per read, each group checked while still in the CPU's cache.
            int group = Math.max(1, READ_GROUP / chunk);
            ByteBuffer view = dst.duplicate();
            CRC32C crc = new CRC32C();
            for (int c = first; c <= last; c += group) {
                int from = c * chunk - offset;
                int to = Math.min(Math.min(c + group, last + 1) * chunk, end) - offset;
                if (!readFully(channel, view.limit(start + to).position(start + from),
                        (long) header.headerLength() + offset + from)) {
                    return "short page file";
                }
                for (int k = c; k < c + group && k <= last; k++) {
                    int kFrom = k * chunk - offset;
                    int kTo = Math.min((k + 1) * chunk, end) - offset;
                    if (PageFile.crc(crc, view, start + kFrom, start + kTo) != header.chunkCrcs()[k]) {
                        return "checksum mismatch in chunk " + k;
                    }
                }
            }
            dst.position(start + n);
            return null;
        }
        // Through a scratch buffer: the chunks touched are read a group at a time, checked, and the
        // part asked for copied out.
        return readChecked(channel, header, first, last, (bytes, bytesStart, bytesEnd) -> {
            int from = Math.max(offset, bytesStart) - bytesStart;
            int to = Math.min(end, bytesEnd) - bytesStart;
            dst.put(bytes.limit(to).position(from));
        });
    }

    /** Takes a group of checked chunks' bytes, page bytes {@code [bytesStart, bytesEnd)}, from {@code bytes}. */
    @FunctionalInterface
    private interface CheckedGroup {
        void accept(ByteBuffer bytes, int bytesStart, int bytesEnd);
    }

    /**
     * Reads chunks {@code first} to {@code last} into a scratch buffer a group at a time, checks
     * each against its checksum, and hands each group to {@code sink}; null if all is well.
     */
    private static String readChecked(FileChannel channel, PageFile.Header header, int first, int last,
                                      CheckedGroup sink) throws IOException {
        int chunk = header.chunkSize();
        int group = Math.max(1, READ_GROUP / chunk);
        ByteBuffer scratch = SCRATCH.take(Math.min(group, last - first + 1) * chunk);
        try {
            CRC32C crc = new CRC32C();
            for (int c = first; c <= last; c += group) {
                int groupEnd = Math.min(c + group, last + 1);
                int bytesStart = c * chunk;
                int bytesEnd = Math.min(groupEnd * chunk, header.dataLength());
                scratch.clear().limit(bytesEnd - bytesStart);
                if (!readFully(channel, scratch, (long) header.headerLength() + bytesStart)) {
                    return "short page file";
                }
                for (int k = c; k < groupEnd; k++) {
                    int kFrom = k * chunk - bytesStart;
                    int kTo = Math.min((k + 1) * chunk, bytesEnd) - bytesStart;
                    if (PageFile.crc(crc, scratch, kFrom, kTo) != header.chunkCrcs()[k]) {
                        return "checksum mismatch in chunk " + k;
                    }
                }
                sink.accept(scratch.limit(bytesEnd - bytesStart).position(0), bytesStart, bytesEnd);
            }
            return null;
        } finally {
            SCRATCH.give(scratch);
        }
    }

    private static boolean readFully(FileChannel channel, ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, at);
            if (n < 0) {
                return false;
            }
            at += n;
        }
        return true;
    }

    private void dropDamaged(Entry e, String problem) {
        synchronized (lock) {
            if (index.get(e.id) != e) {
                return; // evicted or replaced while we read it: an ordinary miss
            }
            removeLocked(e.id);
        }
        if (problem == null) {
            meters.pagesLost.increment();
            log.debug("cache page {} of {} vanished from {}; dropped", e.id.index(), e.id.fileKey(), root);
        } else {
            meters.checksumFailures.increment();
            log.warn("cache page {} of {} in {} is damaged ({}); dropped, it will be fetched again",
                    e.id.index(), e.id.fileKey(), root, problem);
        }
    }

    // ---- writes -----------------------------------------------------------------------------

    /** See {@link PageStore#put(PageId, ByteBuffer, Reread)}. */
    boolean put(PageId id, ByteBuffer data, Reread reread) {
        if (!PageFile.fits(id)) {
            return false;
        }
        int headerLength = PageFile.headerLength(id, data.remaining());
        long need = (long) headerLength + data.remaining();
        if (need > quota) {
            meters.fillsDropped.increment();
            return false;
        }
        synchronized (lock) {
            if (index.containsKey(id) || writing.contains(id)) {
                return true;
            }
            if (!ensureUsableLocked() || !reserveLocked(need)) {
                meters.fillsDropped.increment();
                return false;
            }
            reserved += need;
            writing.add(id);
        }
        Path tmp = staging.resolve("page-" + stagingNames.incrementAndGet() + ".tmp");
        try {
            write(tmp, id, headerLength, data, reread);
            return publish(id, tmp, headerLength, data.remaining(), need);
        } catch (IOException e) {
            deleteQuietly(tmp);
            synchronized (lock) {
                reserved -= need;
                writing.remove(id);
                markUnusableLocked("cannot write a page: " + e);
            }
            meters.fillsDropped.increment();
            return false;
        }
    }

    /**
     * Writes a page file: a page read again {@link Reread#LATER} straight to the disk where the file
     * system takes it, any other through the kernel's page cache.
     */
    private void write(Path tmp, PageId id, int headerLength, ByteBuffer data, Reread reread) throws IOException {
        if (directWrites && reread == Reread.LATER) {
            try {
                writeStaged(tmp, id, headerLength, data, true);
                return;
            } catch (IOException e) {
                directWrites = false;
                deleteQuietly(tmp);
                log.info("cache directory {}: a direct write failed ({}); pages are written through the page cache",
                        root, e.toString());
            }
        }
        writeStaged(tmp, id, headerLength, data, false);
    }

    /**
     * Writes a page file, from where its bytes are when they are aligned for a direct write, else
     * through an aligned staging buffer: the page's bytes first, after the
     * header's room, a stage at a time, each checksummed as it is written (from the stage, which
     * the JDK checksums in place), then the header, which holds those checksums. {@code direct} writes with
     * {@code O_DIRECT}: the disk takes the bytes from the stage, and the kernel neither copies them
     * into its page cache nor writes them back later; the last block is padded with zeros, then cut
     * off by a truncate to the file's length. Through the page cache, bytes already outside the
     * heap are checksummed and written where they are, without the stage. The file is published
     * only when whole, so the order of its writes is no one else's business.
     */
    private static void writeStaged(Path tmp, PageId id, int headerLength, ByteBuffer data, boolean direct)
            throws IOException {
        int chunk = PageFile.chunkSize(id.pageSize());
        PageFile.ChunkSums sums = new PageFile.ChunkSums(data.remaining(), chunk);
        long length = (long) headerLength + data.remaining();
        ByteBuffer stage = STAGES.take(STAGE);
        Set<OpenOption> options = direct
                ? Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)
                : Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (FileChannel out = FileChannel.open(tmp, options)) {
            ByteBuffer d = data.duplicate();
            if (direct && writeWholeInPlace(out, id, headerLength, d, chunk, sums, stage)) {
                return;
            }
            long at = headerLength;
            if (!direct && d.isDirect()) {
                sums.update(d);
                at = PageCacheWrites.writeFully(out, d, at);
            }
            while (d.hasRemaining()) {
                stage.clear();
                moveInto(stage, d);
                stage.flip();
                sums.update(stage);
                at = writeStage(out, stage, at, direct);
            }
            stage.clear();
            stage.put(PageFile.header(id, data.remaining(), chunk, sums.finish())).flip();
            writeStage(out, stage, 0, direct);
            if (direct && at != length) {
                out.truncate(length);
            }
        } finally {
            STAGES.give(stage);
        }
    }

    /**
     * Writes a whole page file with one gathering {@code O_DIRECT} write, when {@code data} lies in
     * memory aligned for it (a readahead part the S3 client lent, in a pool that {@code bin/strata}
     * has the JVM page-align, {@code -Dsun.nio.PageAlignDirectMemory}): the header and the data's
     * tail from the stage, the data's whole blocks from where they are, uncopied (copying each page
     * into the stage was a quarter of the fills' CPU in a cold read of 1 GiB, docs/PERFORMANCE.md,
     * forty-sixth round). The checksums, which the header holds, are taken first. A header written
     * on its own cost a second system call and a second wait on the disk per page (forty-eighth
     * round). False, having written nothing, when {@code data} is not so aligned.
     */
    private static boolean writeWholeInPlace(FileChannel out, PageId id, int headerLength, ByteBuffer data,
            int chunk, PageFile.ChunkSums sums, ByteBuffer stage) throws IOException {
        int dataLength = data.remaining();
        int whole = dataLength / PageFile.ALIGNMENT * PageFile.ALIGNMENT;
        int tail = dataLength - whole;
        if (whole == 0 || !data.isDirect() || data.alignmentOffset(data.position(), PageFile.ALIGNMENT) != 0
                || headerLength + PageFile.aligned(tail) > stage.capacity()) {
            return false;
        }
        ByteBuffer blocks = data.slice(data.position(), whole);
        ByteBuffer tailBytes = data.slice(data.position() + whole, tail);
        sums.update(blocks);
        sums.update(tailBytes);
        int paddedTail = PageFile.aligned(tail);
        stage.clear();
        stage.put(PageFile.header(id, dataLength, chunk, sums.finish()))
                .put(tailBytes)
                .put(ZEROS.duplicate().limit(paddedTail - tail));
        ByteBuffer[] file = paddedTail == 0
                ? new ByteBuffer[] {stage.slice(0, headerLength), blocks}
                : new ByteBuffer[] {stage.slice(0, headerLength), blocks, stage.slice(headerLength, paddedTail)};
        long left = (long) headerLength + whole + paddedTail;
        while (left > 0) {
            left -= out.write(file);
        }
        if (paddedTail != tail) {
            out.truncate((long) headerLength + dataLength);
        }
        return true;
    }

    /**
     * Writes the stage's bytes at {@code position}: a direct write padded with zeros to the
     * alignment, a page-cache write in {@link PageCacheWrites}'s pieces. Returns the position after them.
     */
    private static long writeStage(FileChannel out, ByteBuffer stage, long position, boolean direct)
            throws IOException {
        if (!direct) {
            return PageCacheWrites.writeFully(out, stage, position);
        }
        int length = stage.limit();
        int end = PageFile.aligned(length);
        stage.limit(end).put(length, ZEROS, 0, end - length);
        long at = position;
        while (stage.hasRemaining()) {
            at += out.write(stage, at);
        }
        return at;
    }

    /** As much of {@code from} as {@code to} has room for. */
    private static void moveInto(ByteBuffer to, ByteBuffer from) {
        int n = Math.min(to.remaining(), from.remaining());
        to.put(to.position(), from, from.position(), n).position(to.position() + n);
        from.position(from.position() + n);
    }

    private boolean publish(PageId id, Path tmp, int headerLength, int dataLength, long need) throws IOException {
        List<PageId> evicted;
        synchronized (lock) {
            reserved -= need;
            writing.remove(id);
            evicted = new ArrayList<>(policy.onInsert(id, need));
            boolean admitted = !evicted.remove(id);
            evicted.forEach(this::evictLocked);
            if (!admitted) {
                deleteQuietly(tmp);
                meters.fillsDropped.increment();
                return false;
            }
            Path target = pathOf(id);
            try {
                move(tmp, target);
            } catch (IOException e) {
                policy.onRemove(id);
                throw e;
            }
            // Written here, from the bytes its checksums were taken from: checked by construction.
            index.put(id, new Entry(id, target, headerLength, dataLength, nanoClock.getAsLong(),
                    CheckedChunks.all(chunkCount(dataLength, PageFile.chunkSize(id.pageSize())))));
            used += need;
        }
        meters.fills.increment();
        return true;
    }

    private static void move(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException e) {
            if (!Files.exists(tmp)) {
                throw e;
            }
            Files.createDirectories(target.getParent()); // the fan-out directory's first page, or it was removed
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the cache directory cannot rename atomically: " + e.getMessage(), e);
        }
    }

    /** Evicts until {@code need} more bytes fit the quota and the free-space floor; false if they cannot. */
    private boolean reserveLocked(long need) {
        while (used + reserved + need > quota) {
            if (!evictVictimLocked()) {
                return false;
            }
        }
        long shortfall;
        try {
            DiskSpace.Usage usage = space.of(root);
            long floor = (long) Math.ceil(freeSpaceRatio * usage.totalBytes());
            shortfall = need + reserved - (usage.usableBytes() - floor);
        } catch (IOException e) {
            markUnusableLocked("cannot read its free space: " + e);
            return false;
        }
        while (shortfall > 0) {
            long freed = evictVictimBytesLocked();
            if (freed < 0) {
                fullUntilNs = nanoClock.getAsLong() + RETRY.toNanos();
                if (!warnedFull) {
                    warnedFull = true;
                    log.warn("cache directory {} cannot take more pages: its file system is below the free space"
                            + " floor (free_space_ratio={}); new pages are not cached there until space is freed",
                            root, freeSpaceRatio);
                }
                return false;
            }
            shortfall -= freed;
        }
        if (warnedFull) {
            warnedFull = false;
            log.info("cache directory {} has room again", root);
        }
        return true;
    }

    private boolean evictVictimLocked() {
        return evictVictimBytesLocked() >= 0;
    }

    /** Evicts the policy's victim; its bytes, or -1 when nothing is left to evict. */
    private long evictVictimBytesLocked() {
        PageId victim = policy.victim();
        if (victim == null) {
            return -1;
        }
        Entry e = index.get(victim);
        evictLocked(victim);
        return e == null ? 0 : e.fileLength();
    }

    private void evictLocked(PageId id) {
        if (removeLocked(id)) {
            meters.evictions.increment();
        }
    }

    /** Forgets a page and deletes its file; true if it was indexed. */
    private boolean removeLocked(PageId id) {
        policy.onRemove(id);
        Entry e = index.remove(id);
        if (e == null) {
            return false;
        }
        used -= e.fileLength();
        deleteQuietly(e.path);
        openFiles.forget(e.path); // after the delete: see OpenPageFiles
        return true;
    }

    void delete(PageId id) {
        synchronized (lock) {
            removeLocked(id);
        }
    }

    // ---- state ------------------------------------------------------------------------------

    long usedBytes() {
        synchronized (lock) {
            return used;
        }
    }

    long pageCount() {
        synchronized (lock) {
            return index.size();
        }
    }

    /** Page id → file length, for tests that check the index against the files. */
    Map<PageId, Long> snapshot() {
        synchronized (lock) {
            Map<PageId, Long> out = new HashMap<>();
            index.forEach((id, e) -> out.put(id, e.fileLength()));
            return out;
        }
    }

    /**
     * Where page {@code id} lives: named by its file's digest, its index and its page size, in the
     * fan-out directory of its run of {@link #PAGES_PER_FANOUT} pages. The digest is taken once per
     * file, not once per page (names are looked up in {@link #fileDigests}): hashed per page, SHA-256
     * was the largest thing a fresh daemon compiled during its first cold read (three C2
     * compilations of the JDK's SHA-256 loop, 0.18 s, docs/PERFORMANCE.md).
     */
    Path pathOf(PageId id) {
        String file = fileDigests.get(new FileVersion(id.fileKey(), id.version()));
        int fanout = (HexFormat.fromHexDigits(file, 0, 2) + (int) (id.index() / PAGES_PER_FANOUT)) % FANOUT;
        return pages.resolve(HexFormat.of().toHexDigits((byte) fanout)).resolve(file + "-" + id.index() + "-"
                + id.pageSize() + SUFFIX);
    }

    /**
     * What a page file's name takes from its page id's file. Its {@code equals} and {@code hashCode}
     * are written out for the reason {@link PageId}'s are: a record's own are linked at their first
     * call in each JVM, on a fresh mount's first fills.
     */
    private record FileVersion(String fileKey, String version) {
        @Override
        public boolean equals(Object o) {
            return o instanceof FileVersion other && fileKey.equals(other.fileKey) && version.equals(other.version);
        }

        @Override
        public int hashCode() {
            return fileKey.hashCode() * 31 + version.hashCode();
        }
    }

    /** 32 hex digits of the SHA-256 of a file key and a version, each ended by a zero byte. */
    private static String fileDigest(FileVersion file) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("SHA-256 is in every JDK", e);
        }
        sha.update(file.fileKey().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(file.version().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        return HexFormat.of().formatHex(sha.digest(), 0, 16);
    }

    /** Makes the directory usable if it is not and its retry time has come; true if usable. */
    private boolean ensureUsableLocked() {
        return ensureUsableLocked(true);
    }

    private boolean ensureUsableLocked(boolean restoreNow) {
        if (usable) {
            return true;
        }
        if (closed || (failedBefore && nanoClock.getAsLong() - retryAtNs < 0)) {
            return false;
        }
        try {
            prepare(restoreNow);
            boolean wasDown = failedBefore;
            usable = true;
            failedBefore = false;
            if (wasDown) {
                log.info("cache directory {} is usable again", root);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            markUnusableLocked(describe(e));
            return false;
        }
    }

    private void markUnusableLocked(String reason) {
        boolean first = usable || !failedBefore;
        usable = false;
        failedBefore = true;
        retryAtNs = nanoClock.getAsLong() + RETRY.toNanos();
        if (first) {
            log.warn("cache directory {} is not usable ({}); reads bypass it and fetch from the under storage;"
                    + " retrying every {} s", root, reason, RETRY.toSeconds());
        }
    }

    private static String describe(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied or read-only: " + e.getMessage();
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getFile() + ": " + fse.getReason();
        }
        return e.toString();
    }

    /** Creates the layout, takes the directory's lock, clears staging, checks it is writable, maybe scans. */
    private void prepare(boolean restoreNow) throws IOException {
        Files.createDirectories(pages);
        Files.createDirectories(staging);
        if (fileLock == null) {
            lockChannel = FileChannel.open(root.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                fileLock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                fileLock = null;
            }
            if (fileLock == null) {
                lockChannel.close();
                lockChannel = null;
                throw new IOException("in use by another Strata mount; give each mount its own local_data_cache");
            }
        }
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(staging)) {
            for (Path leftover : leftovers) {
                deleteQuietly(leftover);
            }
        }
        Path probe = staging.resolve("probe-" + UUID.randomUUID());
        Files.write(probe, new byte[] {1}, StandardOpenOption.CREATE_NEW);
        Files.delete(probe);
        directWrites = takesDirectWrites();
        // The FANOUT directories are made as their first page is published (move): making all of
        // them here cost a mount on an empty cache directory ~0.1 s of its start (256 mkdirs).
        if (restoreNow && !scanned) {
            scan();
            scanned = true;
        }
    }

    /**
     * Whether a page file can be written here with O_DIRECT, tried with one block: not on file
     * systems without it (tmpfs before Linux 6.6, some FUSE and network file systems) nor on blocks
     * larger than {@link PageFile#ALIGNMENT}. Pages are then written through the page cache.
     */
    private boolean takesDirectWrites() {
        Path probe = staging.resolve("probe-direct-" + UUID.randomUUID());
        PageId onePage = new PageId("probe", "", 0, PageFile.ALIGNMENT); // a page of one byte, written as pages are
        int headerLength = PageFile.headerLength(onePage, 1);
        try {
            writeStaged(probe, onePage, headerLength, ByteBuffer.allocate(1), true);
            if (Files.size(probe) == headerLength + 1) {
                return true;
            }
            log.info("cache directory {}: a direct write came out the wrong length; pages are written through"
                    + " the page cache", root);
        } catch (IOException | UnsupportedOperationException e) {
            log.debug("cache directory {} takes no direct writes ({}); pages are written through the page cache",
                    root, e.toString());
        } finally {
            deleteQuietly(probe);
        }
        return false;
    }

    /** Whether pages are written with O_DIRECT here now. */
    boolean writesDirect() {
        return directWrites;
    }

    /** Rebuilds the index from the page files' headers; deletes files that are not whole pages. */
    private void scan() {
        long startNs = System.nanoTime();
        List<List<Found>> perDir = IntStream.range(0, FANOUT).parallel()
                .mapToObj(i -> scanFanout(pages.resolve(String.format("%02x", i))))
                .toList();
        List<Found> found = new ArrayList<>();
        perDir.forEach(found::addAll);
        found.sort(Comparator.comparingLong(Found::mtimeMs));
        int damaged = 0;
        int moved = 0;
        for (Found f : found) {
            if (f.header == null) {
                damaged++;
                continue;
            }
            PageId id = f.header.id();
            Path target = pathOf(id);
            if (!f.file.equals(target)) {
                // Moved only now that every fan-out directory was listed: no page is found twice
                if (!adopt(f.file, target)) {
                    continue;
                }
                moved++;
            }
            index.put(id, new Entry(id, target, f.header.headerLength(), f.header.dataLength(),
                    nanoClock.getAsLong(), null)); // found, not written: each chunk is checked on its first read
            used += f.header.fileLength();
            for (PageId evicted : policy.onInsert(id, f.header.fileLength())) {
                removeLocked(evicted);
            }
        }
        while (used > quota && evictVictimBytesLocked() >= 0) {
            // the quota shrank since the pages were written
        }
        if (damaged > 0) {
            meters.checksumFailures.increment(damaged);
        }
        log.info("cache directory {}: {} pages ({} bytes) restored in {} ms{}{}", root, index.size(), used,
                (System.nanoTime() - startNs) / 1_000_000, damaged > 0 ? ", " + damaged + " damaged files deleted" : "",
                moved > 0 ? ", " + moved + " moved from an earlier layout" : "");
    }

    /**
     * Moves a whole page file found away from its name (written by a Strata that named pages
     * otherwise) to where this one looks for it; false, deleting it, if that place is taken or the
     * move fails.
     */
    private boolean adopt(Path file, Path target) {
        try {
            if (!Files.exists(target)) {
                Files.createDirectories(target.getParent());
                Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
                return true;
            }
        } catch (IOException e) {
            log.debug("cannot move cache page {} to {}: {}", file, target, e.toString());
        }
        deleteQuietly(file);
        return false;
    }

    /** A page file found by the scan: its header (null if it is not a whole page), its age and where it is. */
    private record Found(PageFile.Header header, long mtimeMs, Path file) {}

    private List<Found> scanFanout(Path dir) {
        List<Found> found = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.allocate(PageFile.MAX_HEADER);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                Found f = inspect(file, buffer);
                if (f != null) {
                    found.add(f);
                }
            }
        } catch (NoSuchFileException e) {
            // not created yet
        } catch (IOException e) {
            log.warn("cannot list cache directory {}: {}", dir, e.toString());
        }
        return found;
    }

    /** The header of a page file, a damaged marker (header null) if it is not a whole page, or null if not ours. */
    private Found inspect(Path file, ByteBuffer buffer) {
        String fileName = file.getFileName().toString();
        if (!fileName.endsWith(SUFFIX)) {
            return null;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            buffer.clear().limit((int) Math.min(buffer.capacity(), size));
            readFully(channel, buffer, 0);
            PageFile.Header header = PageFile.parse(buffer.flip());
            if (header == null || header.fileLength() != size) {
                deleteQuietly(file);
                return new Found(null, 0, file);
            }
            return new Found(header, Files.getLastModifiedTime(file).toMillis(), file);
        } catch (IOException e) {
            deleteQuietly(file);
            return new Found(null, 0, file);
        }
    }

    void close() {
        synchronized (lock) {
            try {
                if (fileLock != null) {
                    fileLock.release();
                }
                if (lockChannel != null) {
                    lockChannel.close();
                }
            } catch (IOException e) {
                log.debug("releasing the lock of {}: {}", root, e.toString());
            } finally {
                warmer.close();
                openFiles.close();
                fileLock = null;
                lockChannel = null;
                usable = false;
                closed = true;
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("cannot delete {}: {}", file, e.toString());
        }
    }

    static int openFilesBound() {
        long limit = openFileLimit();
        return limit < 0 ? 256 : (int) Math.max(16, Math.min(1024, limit / 8));
    }

    /**
     * The process's limit on open files, from {@code /proc/self/limits}; -1 if unknown. Not from the
     * platform's {@code OperatingSystemMXBean}: making it cost a fresh JVM 26-41 ms, on the mount's path.
     */
    private static long openFileLimit() {
        String field = "Max open files";
        try (java.io.BufferedReader limits = Files.newBufferedReader(Path.of("/proc/self/limits"))) {
            for (String line = limits.readLine(); line != null; line = limits.readLine()) {
                if (line.startsWith(field)) {
                    String soft = line.substring(field.length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a format this does not know: the caller's default
        }
        return -1;
    }

    /** Direct buffers kept for reuse across directories, up to a number. */
    private static final class BufferPool {
        private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();
        private final int kept;
        private final IntFunction<ByteBuffer> allocate;

        BufferPool(int kept, IntFunction<ByteBuffer> allocate) {
            this.kept = kept;
            this.allocate = allocate;
        }

        /** A kept buffer of at least {@code size} bytes, else a new one (a kept one too small is dropped). */
        ByteBuffer take(int size) {
            ByteBuffer b = free.poll();
            return b != null && b.capacity() >= size ? b : allocate.apply(size);
        }

        void give(ByteBuffer b) {
            if (free.size() < kept) {
                free.offer(b);
            }
        }
    }

    @Override
    public String toString() {
        return "cache directory " + root;
    }

    private static int chunkCount(int dataLength, int chunkSize) {
        return (dataLength + chunkSize - 1) / chunkSize;
    }

    /** What the index knows of one page file. */
    private static final class Entry {
        final PageId id;
        /** The page file: its name is a hash of the id, computed once here rather than per read. */
        final Path path;
        final int headerLength;
        final int dataLength;
        /** The file's header once a read has checked it: later reads skip reading and parsing it. */
        volatile PageFile.Header header;
        /**
         * The chunks known to match their checksums: all of them for a page written here, else
         * those a read has checked since the page was found, made on the first read.
         */
        private volatile CheckedChunks checked;
        /** When the page file was last queued to be read back whole ({@link CacheDir#warmIfSlow}); 0 if never. */
        volatile long warmAskedNs;
        /** Bytes read since the page was stored or last found hot ({@link CacheDir#takeHot}). Guarded by the lock. */
        long bytesRead;
        /** When that count started. Guarded by the lock. */
        long heatSinceNs;

        /** @param checked the chunks known to be sound, or null for a page found on disk (none yet) */
        Entry(PageId id, Path path, int headerLength, int dataLength, long storedNs, CheckedChunks checked) {
            this.id = id;
            this.path = path;
            this.headerLength = headerLength;
            this.dataLength = dataLength;
            this.heatSinceNs = storedNs;
            this.checked = checked;
        }

        long fileLength() {
            return (long) headerLength + dataLength;
        }

        /**
         * The page's checked chunks. Two racing first reads may each make a set: one is lost, and
         * its chunks are checked again.
         */
        CheckedChunks checked(PageFile.Header header) {
            CheckedChunks chunks = checked;
            if (chunks == null) {
                chunks = new CheckedChunks(chunkCount(header.dataLength(), header.chunkSize()));
                checked = chunks;
            }
            return chunks;
        }
    }
}
