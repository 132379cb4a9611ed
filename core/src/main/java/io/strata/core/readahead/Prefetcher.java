package io.strata.core.readahead;

import io.strata.core.buffer.LentBytes;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.Objects.requireNonNull;

/**
 * The read path of one open version of one object: serves positional reads from its parts,
 * fetching what is missing and reading ahead of sequential streams.
 *
 * <p>A read of {@code [offset, end)}:
 * <ol>
 *   <li>finds its stream among the file's {@link ReadaheadSession}s (or none: a random read);</li>
 *   <li>works out what must be fetched now: nothing if parts of the {@link PartTable} cover the
 *       range (in flight or fetched), else its gaps; a small random read is widened to its aligned
 *       block, or near the end to the file's tail ({@code prefetch}); these bytes are reserved in
 *       the {@link BufferBudget}, waiting for room if need be;</li>
 *   <li>registers those parts, moves its session on (or starts one: sequential at once when the
 *       read starts at the file's first byte), and tops up the session's window with readahead
 *       parts the budget has room for right now (never waiting);</li>
 *   <li>pins the parts it needs and, without the lock, waits for them and copies its bytes out.</li>
 * </ol>
 * Parts are dropped once read through, when their session has moved a part past them unread or
 * was evicted (unread bytes halve its window), when the budget reclaims them for a waiting reader,
 * or at close; a pinned part is released only when its last reader is done with it.
 *
 * <p>Thread-safe: one lock guards the sessions and parts and is never held while waiting, neither
 * for a fetch nor for budget room.
 */
public final class Prefetcher implements Closeable, BufferBudget.Reclaimable {
    /** Which session goes first when there are too many: see {@link #startSession}. */
    private static final Comparator<ReadaheadSession> EVICTION_ORDER =
            Comparator.comparing(ReadaheadSession::sequential).thenComparingLong(ReadaheadSession::lastUse);

    private final ReadaheadConfig config;
    private final BufferBudget budget;
    private final ActiveStreams streams;
    private final ReadaheadStats stats;
    private final RangeFetcher fetcher;
    private final long size;
    private final String name;
    private final ReentrantLock lock = new ReentrantLock();

    /** The rest is guarded by the lock. */
    private final PartTable parts = new PartTable();
    private final List<ReadaheadSession> sessions = new ArrayList<>();
    private long ticks;
    private long partSequence;
    private boolean closed;

    Prefetcher(Readahead engine, RangeFetcher fetcher, long size, String name) {
        this.config = engine.config();
        this.budget = engine.budget();
        this.streams = engine.streams();
        this.stats = engine.stats();
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.name = requireNonNull(name, "name is null");
        if (size < 0) {
            throw new IllegalArgumentException("size is negative: " + size);
        }
        this.size = size;
        budget.register(this);
    }

    public long size() {
        return size;
    }

    /**
     * Reads into {@code dst} from {@code offset}: returns the bytes read, fewer than asked only at
     * the end of the object or when the request is larger than the whole buffer budget; -1 at the
     * end of the object.
     */
    public int read(ByteBuffer dst, long offset) throws IOException {
        requireNonNull(dst, "dst is null");
        if (offset < 0) {
            throw new IllegalArgumentException("offset is negative: " + offset);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (offset >= size) {
            return -1;
        }
        long end = Math.min(size, offset + dst.remaining());
        Pinned pinned = pin(offset, end);
        return copy(pinned, dst, offset);
    }

    /**
     * Reads up to {@code length} bytes at {@code offset}, held by the caller until it closes them:
     * fewer only at the end of the object or when {@code length} exceeds the whole buffer budget;
     * empty at the end of the object. When the bytes lie in one block of one fetched part (a
     * block-aligned read of at most a block, as each page the page cache fills), they are a view of
     * the part's memory, not a copy: that block then outlives the part's reservation until the
     * caller closes them (memory the S3 client lent goes back to it only then).
     */
    public LentBytes readRange(long offset, int length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("bad range " + offset + "+" + length);
        }
        if (offset >= size || length == 0) {
            return LentBytes.empty();
        }
        Pinned pinned = pin(offset, Math.min(size, offset + length));
        LentBytes view = view(pinned, offset);
        if (view != null) {
            return view;
        }
        ByteBuffer copy = ByteBuffer.allocate((int) (pinned.end() - offset));
        copy(pinned, copy, offset);
        return LentBytes.owned(copy.flip());
    }

    /**
     * A hint that {@code [offset, offset + length)} will be read soon, in order (a positioned read of
     * a Parquet column chunk, through the page cache a page at a time): what no part covers yet is
     * requested now, as parts of up to a part's size that all run at once, each only if the budget
     * has room now, so a known range does not wait for a window to grow. Never waits and never
     * fails: what is not requested here is fetched when read. The parts belong to no stream (reads
     * of them start none, so nothing is read ahead past the range); they go when read through, when
     * the budget reclaims them, or when the file closes. A range no longer than a stream's first
     * window (a FUSE request's pages) is left to the streams, which read ahead of it as before.
     */
    public void willNeed(long offset, long length) {
        if (offset < 0 || length <= config.initialWindow() || offset >= size) {
            return;
        }
        long end = Math.min(size, offset + length);
        lock.lock();
        try {
            if (closed) {
                return;
            }
            fetchWhileRoom(parts.gaps(offset, end), null);
        } finally {
            lock.unlock();
        }
    }

    // ---- planning and registering, under the lock ---------------------------------------------

    /** The parts covering {@code [offset, pinned.end)}, pinned; fetches registered as needed. */
    private Pinned pin(long offset, long end) throws IOException {
        long reserved = 0;
        try {
            while (true) {
                long missing;
                lock.lock();
                try {
                    checkOpen();
                    Demand demand = demand(offset, end);
                    long need = demand.bytes();
                    if (need > reserved && reserved == 0 && budget.tryReserve(need)) {
                        reserved = need;
                    }
                    if (need <= reserved) {
                        long surplus = reserved - need;
                        reserved = 0; // handed to the demand's parts (and the surplus back)
                        if (surplus > 0) {
                            budget.release(surplus);
                        }
                        return commit(offset, demand);
                    }
                    missing = need;
                } finally {
                    lock.unlock();
                }
                // Wait for room without the lock (the budget may ask this very file to give some back).
                if (reserved > 0) {
                    budget.release(reserved);
                    reserved = 0;
                }
                budget.reserve(missing);
                reserved = missing;
            }
        } finally {
            if (reserved > 0) {
                budget.release(reserved);
            }
        }
    }

    /** What a read must fetch now. */
    private record Demand(ReadaheadSession session, long end, List<PartTable.Gap> gaps) {
        long bytes() {
            long total = 0;
            for (PartTable.Gap gap : gaps) {
                total += gap.length();
            }
            return total;
        }
    }

    /**
     * The ranges a read of {@code [offset, end)} must fetch: none if parts cover it; else the gaps,
     * widened for a small random read to its aligned block (or the tail, near the end) when
     * prefetch is on, and cut to the budget's size (the read then comes back short).
     */
    private Demand demand(long offset, long end) {
        ReadaheadSession session = match(offset);
        List<PartTable.Gap> gaps = parts.gaps(offset, end);
        if (gaps.isEmpty()) {
            return new Demand(session, end, gaps);
        }
        if (config.prefetch() && session == null && end - offset < config.blockSize()) {
            long from;
            long to;
            if (size - offset <= config.tailSize()) {
                from = alignDown(Math.max(0, size - config.tailSize()), config.blockSize());
                to = size;
            } else {
                from = alignDown(offset, config.blockSize());
                to = Math.min(size, Math.max(end, from + config.blockSize()));
            }
            List<PartTable.Gap> widened = parts.gaps(from, to);
            if (total(widened) <= budget.limit()) {
                return new Demand(null, end, widened);
            }
        }
        long room = budget.limit();
        List<PartTable.Gap> capped = new ArrayList<>();
        for (PartTable.Gap gap : gaps) {
            if (gap.length() > room) {
                if (room > 0) {
                    capped.add(new PartTable.Gap(gap.start(), gap.start() + room));
                }
                return new Demand(session, gap.start() + room, capped);
            }
            capped.add(gap);
            room -= gap.length();
        }
        return new Demand(session, end, capped);
    }

    /** The session a read at {@code offset} continues: the closest one it belongs to, or null. */
    private ReadaheadSession match(long offset) {
        ReadaheadSession best = null;
        for (ReadaheadSession session : sessions) {
            if (session.continues(offset, config.partSize())
                    && (best == null || session.distance(offset) < best.distance(offset))) {
                best = session;
            }
        }
        return best;
    }

    /**
     * Pins the parts already covering the read, moves the stream on (or starts one), registers and
     * pins the demand's parts (its bytes are reserved), and reads ahead.
     */
    private Pinned commit(long offset, Demand demand) {
        long end = demand.end();
        List<Part> needed = new ArrayList<>();
        for (Part part : parts.overlapping(offset, end)) {
            part.pins++; // first, so that nothing below drops it under the read
            needed.add(part);
            if (!part.done()) {
                stats.joinedReads.increment();
            }
        }
        long tick = ++ticks;
        ReadaheadSession session = demand.session();
        if (session != null) {
            session.advance(offset, end, tick, config.streamWindow(streams.reading(session)), config);
        } else if (!demand.gaps().isEmpty()) {
            session = startSession(end, tick);
            if (offset == 0 && config.readahead()) {
                session.startSequential(config.startWindow());
            }
        }
        for (PartTable.Gap gap : demand.gaps()) {
            for (long start = gap.start(); start < gap.end(); ) {
                long partEnd = Math.min(gap.end(), start + config.partSize());
                Part part = fetch(start, partEnd, session, false, start < end && partEnd > offset);
                if (part.pins > 0) {
                    needed.add(part);
                }
                start = partEnd;
            }
        }
        if (session != null) {
            dropSkipped(session);
            readAhead(session);
        }
        needed.sort(Comparator.comparingLong(p -> p.start));
        long position = offset;
        for (Part part : needed) {
            if (part.start > position) {
                throw new IllegalStateException("no part covers offset " + position + " of '" + name + "'");
            }
            position = Math.max(position, part.end);
        }
        if (position < end) {
            throw new IllegalStateException("no part covers offset " + position + " of '" + name + "'");
        }
        return new Pinned(needed, end);
    }

    /**
     * A new session; if there are too many, one goes with its parts: the least recently used of
     * those not (yet) sequential, else the least recently used. A random reader starts a session at
     * each read; were the oldest always to go, a few random readers would evict a sequential
     * stream beside them (a background block load) between two of its reads, dropping the
     * readahead it is about to read, which is then fetched again.
     */
    private ReadaheadSession startSession(long next, long tick) {
        if (sessions.size() >= config.maxSessions()) {
            ReadaheadSession oldest = sessions.stream().min(EVICTION_ORDER).orElseThrow();
            sessions.remove(oldest);
            streams.ended(oldest);
            for (Part part : new ArrayList<>(parts.all())) {
                if (part.owner == oldest) {
                    drop(part); // a part some read has pinned is released when that read is done
                }
            }
        }
        ReadaheadSession session = new ReadaheadSession(next, tick);
        sessions.add(session);
        return session;
    }

    /** Drops the session's parts that it has moved a part past: it skipped them. */
    private void dropSkipped(ReadaheadSession session) {
        boolean unread = false;
        for (Part part : parts.endingBy(session.next() - config.partSize())) {
            if (part.owner == session && part.pins == 0) {
                unread |= part.succeeded() && part.consumed < part.length();
                drop(part);
            }
        }
        if (unread) {
            session.shrink(config);
        }
    }

    /**
     * Tops up a sequential session's window once less than half of it is left ahead of the
     * stream: parts up to {@code next + window}, each only if the budget has room now. A window
     * of a part or more ends on the part grid, rounded up: a top-up that ended inside a part left
     * the rest of that part to the next top-up, as a GET of its own, so a stream's GETs came in
     * every size up to a part (209 for a cold GiB instead of ~130), and a GET costs the store
     * about the same whatever its size (docs/PERFORMANCE.md, thirty-sixth round).
     */
    private void readAhead(ReadaheadSession session) {
        if (!session.sequential()) {
            return;
        }
        long next = session.next();
        long windowEnd = next + session.window();
        if (session.window() >= config.partSize()) {
            windowEnd = alignUp(windowEnd, config.partSize());
        }
        long target = Math.min(size, windowEnd);
        long ahead = parts.coveredEnd(next);
        if (ahead >= target || ahead - next >= session.window() / 2) {
            return;
        }
        if (!fetchWhileRoom(parts.gaps(ahead, target), session)) {
            session.shrink(config);
        }
    }

    /**
     * Requests the gaps as parts on the part grid for {@code owner} (null: no stream), each only if
     * the budget has room now; false once one is refused (the rest is not requested).
     */
    private boolean fetchWhileRoom(List<PartTable.Gap> gaps, ReadaheadSession owner) {
        for (PartTable.Gap gap : gaps) {
            for (long start = gap.start(); start < gap.end(); ) {
                long partEnd = Math.min(gap.end(), alignDown(start, config.partSize()) + config.partSize());
                if (!budget.tryReserve(partEnd - start)) {
                    stats.refusedReadahead.increment();
                    return false;
                }
                fetch(start, partEnd, owner, true, false);
                start = partEnd;
            }
        }
        return true;
    }

    /** Registers a part (its bytes already reserved), pinned for the current read if asked, and starts its GET. */
    private Part fetch(long start, long end, ReadaheadSession owner, boolean speculative, boolean pin) {
        Part part = new Part(start, end, owner, speculative, ++partSequence, budget);
        if (pin) {
            part.pins++;
        }
        parts.add(part);
        stats.requests.increment();
        stats.requestedBytes.add(end - start);
        if (speculative) {
            stats.readaheadRequests.increment();
        }
        CompletableFuture<FetchedRange> fetch;
        try {
            fetch = fetcher.fetch(start, part.length(), config.blockSize());
        } catch (RuntimeException e) {
            fetch = CompletableFuture.failedFuture(e);
        }
        part.started(fetch);
        fetch.whenComplete((data, failure) -> fetched(part, failure));
        return part;
    }

    /** A GET ended: a failed part leaves the table (the next read asks again); waiting readers look again. */
    private void fetched(Part part, Throwable failure) {
        if (failure != null) {
            lock.lock();
            try {
                drop(part);
            } finally {
                lock.unlock();
            }
        }
        budget.wakeWaiters();
    }

    /** Takes a part out of the table; its reservation goes back once no reader has it pinned. */
    private void drop(Part part) {
        if (part.dropped) {
            return;
        }
        parts.remove(part);
        part.dropped = true;
        if (part.succeeded() && part.consumed < part.length()) {
            stats.unreadBytes.add(part.length() - part.consumed);
        }
        part.releaseIfUnused();
    }

    // ---- copying, without the lock --------------------------------------------------------------

    /** Parts pinned for one read, covering its range up to {@code end}. */
    private record Pinned(List<Part> parts, long end) {}

    /**
     * A view of the pinned bytes when one part holds them all in one block, unpinning it; else
     * null, with the parts still pinned for {@link #copy}.
     */
    private LentBytes view(Pinned pinned, long offset) throws IOException {
        if (pinned.parts().size() != 1) {
            return null;
        }
        LentBytes view;
        try {
            view = pinned.parts().get(0).await().view(offset, (int) (pinned.end() - offset));
        } catch (IOException | RuntimeException | Error e) {
            unpin(pinned.parts(), new long[1]);
            throw e;
        }
        if (view != null) {
            unpin(pinned.parts(), new long[] {view.remaining()});
        }
        return view;
    }

    /** Copies the pinned bytes into {@code dst} and unpins the parts; returns the count, -1 if none. */
    private int copy(Pinned pinned, ByteBuffer dst, long offset) throws IOException {
        List<Part> needed = pinned.parts();
        long[] copied = new long[needed.size()];
        long position = offset;
        try {
            for (int i = 0; i < needed.size() && position < pinned.end(); i++) {
                Part part = needed.get(i);
                FetchedRange data = part.await();
                int n = data.copyTo(position, pinned.end(), dst);
                copied[i] = n;
                position += n;
                if (!data.full()) {
                    break; // the object ended early: a short read
                }
            }
        } finally {
            unpin(needed, copied);
        }
        long total = position - offset;
        return total == 0 ? -1 : (int) total;
    }

    private void unpin(List<Part> needed, long[] copied) {
        lock.lock();
        try {
            for (int i = 0; i < needed.size(); i++) {
                Part part = needed.get(i);
                part.pins--;
                part.consumed += copied[i];
                if (part.consumed >= part.length() || closed) {
                    drop(part);
                }
                part.releaseIfUnused(); // a part dropped while pinned goes when its last reader is done
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- budget pressure and close --------------------------------------------------------------

    /** Drops fetched parts no reader has pinned, oldest first, shrinking their sessions' windows. */
    @Override
    public long reclaim(long wanted) {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            List<Part> idle = new ArrayList<>();
            for (Part part : parts.all()) {
                if (part.pins == 0 && part.done()) {
                    idle.add(part);
                }
            }
            idle.sort(Comparator.comparingLong(p -> p.sequence));
            long freed = 0;
            for (Part part : idle) {
                if (freed >= wanted) {
                    break;
                }
                if (part.owner != null) {
                    part.owner.shrink(config);
                }
                drop(part);
                freed += part.length();
            }
            stats.reclaimedBytes.add(freed);
            return freed;
        } finally {
            lock.unlock();
        }
    }

    /** Drops every part (fetches still running are abandoned); later reads fail. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Part part : new ArrayList<>(parts.all())) {
                drop(part);
            }
            sessions.forEach(streams::ended);
            sessions.clear();
        } finally {
            lock.unlock();
        }
        budget.unregister(this);
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("read '" + name + "': closed");
        }
    }

    private static long alignDown(long offset, long unit) {
        return offset - offset % unit;
    }

    private static long alignUp(long offset, long unit) {
        return alignDown(offset + unit - 1, unit);
    }

    private static long total(List<PartTable.Gap> gaps) {
        long total = 0;
        for (PartTable.Gap gap : gaps) {
            total += gap.length();
        }
        return total;
    }

    // ---- for tests ------------------------------------------------------------------------------

    /** The windows of the file's sessions, least recently used first. */
    List<Long> windows() {
        lock.lock();
        try {
            return sessions.stream().sorted(Comparator.comparingLong(ReadaheadSession::lastUse))
                    .map(ReadaheadSession::window).toList();
        } finally {
            lock.unlock();
        }
    }

    /** The engine's counters. */
    ReadaheadStats stats() {
        return stats;
    }

    /** Parts in the table. */
    int partCount() {
        lock.lock();
        try {
            return parts.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Prefetcher[" + name + ", " + size + " bytes]";
    }
}
