package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicy;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The memory tier: pages in off-heap slots carved from direct-buffer slabs allocated as the tier
 * fills (never more than its capacity), so the heap and the GC never see page data.
 *
 * <p>The slabs are cut into frames of one page each. A frame holds one whole page, or is split
 * into 2, 4, ... 64 equal slots for pages that fit one (a small file's only page, a file's last),
 * down to {@link #MIN_SLOT} bytes: a 128 KiB file takes an eighth of a 1 MiB frame, not all of it,
 * so the default 64 MiB tier holds 512 of them instead of 64. A frame whose pages have all left
 * becomes whole again, to be split anew for whatever size comes next. The eviction policy weighs a
 * page by its slot; when no slot of the size wanted is free, pages leave in the policy's order
 * until one is, or until a whole frame is.
 *
 * <p>Hits take no lock: the index (page → slot) is a concurrent map, and the access is recorded in
 * the eviction policy only when its lock is free at that moment (as Caffeine drops reads from its
 * buffers under contention), so many readers on few cores do not queue behind one another. Puts,
 * evictions and the policy sit under one lock held for map operations only; copies run outside
 * it. A slot can be evicted and reused while a reader is still copying
 * from it, so readers copy optimistically: each slot has a {@link StampedLock} that writers hold
 * while filling it, and a reader whose copy overlapped a write sees its stamp fail validation and
 * reports a miss instead of torn bytes. A frame that becomes whole again takes each of its old
 * slots' write locks once on the way, so a reader still copying from one of them fails the same
 * way. A slot records the page whose bytes it holds, set only once they are all in, so a reserved
 * but unfilled slot is a miss as well.
 *
 * <p>A page evicted to make room can be handed down ({@link #handDownTo}): its bytes are copied out
 * under the lock, before its slot can be filled again, and given to the {@link HandDown} once the
 * lock is released, on the thread whose put evicted it. A page evicted before its own put had
 * copied it in is handed down by that put, from the bytes it was given.
 */
public final class MemoryPageStore implements PageStore {
    /** Frames per slab: 64 MiB of 1 MiB pages; fewer for a smaller tier. */
    private static final long SLAB_BYTES = 64L << 20;
    /** The smallest slot a frame is split into; a shorter page still takes one. */
    static final int MIN_SLOT = 16 << 10;
    /** A frame is cut into at most 2^6 = 64 slots (of 16 KiB, for 1 MiB pages). */
    private static final int MAX_SPLIT = 6;

    private final int pageSize;
    private final long capacityBytes;
    private final int maxFrames;
    /** The deepest split: a frame is cut into at most 2^splits slots. */
    private final int splits;
    private final EvictionPolicy policy;
    private final CacheMetrics.Tier meters;
    private final LongSupplier nanoClock;
    /** Guards the policy, the free frames and slots, the slabs and every change to the index. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Read without the lock by hits; changed only under it. */
    private final Map<PageId, Slot> index = new ConcurrentHashMap<>();
    /** Frames allocated and holding nothing, whole. */
    private final ArrayDeque<Frame> freeFrames = new ArrayDeque<>();
    /** By split (index k: frames cut into 2^k), the free slots of frames that hold something. */
    private final List<Set<Slot>> freeSlots = new ArrayList<>();
    private final List<ByteBuffer> slabs = new ArrayList<>();
    private int allocatedFrames;
    private long usedBytes;
    private volatile HandDown handDown = HandDown.NONE;

    /** Where pages evicted to make room go, if anywhere. */
    public interface HandDown {
        HandDown NONE = new HandDown() {
            @Override
            public boolean wants(PageId id) {
                return false;
            }

            @Override
            public void evicted(PageId id, ByteBuffer bytes) {}
        };

        /** Whether an evicted page's bytes are wanted; asked under the store's lock, or by the page's own put. */
        boolean wants(PageId id);

        /** An evicted page's bytes, readable for the call, once the store's lock is released. */
        void evicted(PageId id, ByteBuffer bytes);
    }

    /** A page evicted and copied out for the {@link HandDown}. */
    private record Evicted(PageId id, ByteBuffer bytes) {}

    /**
     * @param capacityBytes the tier's size; it holds {@code capacityBytes / pageSize} pages
     * @param policy orders pages for eviction; this store owns it from here on
     */
    public MemoryPageStore(int pageSize, long capacityBytes, EvictionPolicy policy, CacheMetrics metrics) {
        this(pageSize, capacityBytes, policy, metrics, System::nanoTime);
    }

    /** @param nanoClock when pages are read, for {@link #residenceNanos} */
    public MemoryPageStore(int pageSize, long capacityBytes, EvictionPolicy policy, CacheMetrics metrics,
                           LongSupplier nanoClock) {
        if (pageSize <= 0) {
            throw new IllegalArgumentException("page size must be positive: " + pageSize);
        }
        if (capacityBytes < pageSize) {
            throw new IllegalArgumentException("memory tier of " + capacityBytes + " bytes holds no page of "
                    + pageSize + " bytes");
        }
        this.pageSize = pageSize;
        this.capacityBytes = capacityBytes;
        this.maxFrames = (int) Math.min(Integer.MAX_VALUE, capacityBytes / pageSize);
        this.splits = deepestSplit(pageSize, MIN_SLOT, MAX_SPLIT);
        for (int i = 0; i <= splits; i++) {
            freeSlots.add(new LinkedHashSet<>());
        }
        this.policy = requireNonNull(policy, "policy is null");
        this.meters = metrics.tier("memory");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        metrics.gauges("memory", this);
    }

    /** Sends the pages this store evicts to make room, those {@code handDown} wants, to it. */
    public void handDownTo(HandDown handDown) {
        this.handDown = requireNonNull(handDown, "handDown is null");
    }

    public int pageSize() {
        return pageSize;
    }

    @Override
    public int read(PageId id, int pageOffset, ByteBuffer dst) {
        recordAccess(id);
        Slot slot = index.get(id);
        int copied = slot == null ? -1 : copyOptimistically(slot, id, pageOffset, dst);
        if (copied < 0) {
            meters.misses.increment();
            return -1;
        }
        slot.usedNs = nanoClock.getAsLong();
        meters.hits.increment();
        meters.bytesRead.increment(copied);
        return copied;
    }

    /**
     * The whole page into {@code dst} for the tier below: not a reader's read, so it is neither a
     * hit nor an access in the eviction order. The length, or -1 if the page is not here.
     */
    int copy(PageId id, ByteBuffer dst) {
        Slot slot = index.get(id);
        return slot == null ? -1 : copyOptimistically(slot, id, 0, dst);
    }

    /**
     * Copies from the slot without locking it; -1, with {@code dst} as it was, if the slot does not
     * hold the page or was written to meanwhile (evicted, or its frame cut anew).
     */
    private static int copyOptimistically(Slot slot, PageId id, int pageOffset, ByteBuffer dst) {
        long stamp = slot.lock.tryOptimisticRead();
        int start = dst.position();
        int copied = copyOut(slot, id, pageOffset, dst);
        if (copied < 0 || !slot.lock.validate(stamp)) {
            dst.position(start);
            return -1;
        }
        return copied;
    }

    /** Records a lookup in the eviction order if nobody holds the lock; under contention it is dropped. */
    private void recordAccess(PageId id) {
        if (lock.tryLock()) {
            try {
                policy.onAccess(id);
            } finally {
                lock.unlock();
            }
        }
    }

    private static int copyOut(Slot slot, PageId id, int pageOffset, ByteBuffer dst) {
        if (!id.equals(slot.content)) {
            return -1;
        }
        int length = slot.length;
        int n = Math.min(dst.remaining(), length - pageOffset);
        if (n <= 0) {
            return 0;
        }
        dst.put(slot.view.duplicate().limit(pageOffset + n).position(pageOffset));
        return n;
    }

    /** Copies a page's bytes into the slot it is to have; the number copied, or -1 if they cannot be had. */
    @FunctionalInterface
    interface PageSource {
        int copyTo(ByteBuffer slot);
    }

    @Override
    public boolean put(PageId id, ByteBuffer data) {
        return store(id, data.remaining(), slot -> {
            slot.put(data.duplicate());
            return slot.position();
        }, data);
    }

    /**
     * Stores a page of {@code length} bytes that {@code source} copies straight into its slot: a
     * promotion reads the disk tier's page file into the slot, with no buffer between (a 1 MiB heap
     * array per promotion was zeroed, filled and copied again). False, keeping nothing, if the tier
     * refuses the page or the source does not give exactly {@code length} bytes.
     */
    boolean putFrom(PageId id, int length, PageSource source) {
        return store(id, length, source, null);
    }

    /** @param bytes the page's bytes, to hand down if it is evicted before they are in; null if not at hand */
    private boolean store(PageId id, int length, PageSource source, ByteBuffer bytes) {
        if (id.pageSize() != pageSize || length > pageSize || length < 0) {
            meters.fillsDropped.increment();
            return false;
        }
        int split = splitFor(length);
        Slot slot;
        List<PageId> evicted;
        List<Evicted> handed = new ArrayList<>(0);
        lock.lock();
        try {
            if (index.containsKey(id)) {
                return true;
            }
            evicted = new ArrayList<>(policy.onInsert(id, pageSize >> split));
            boolean refused = evicted.remove(id);
            evicted.forEach(victim -> evictLocked(victim, handed));
            slot = refused ? null : takeSlotLocked(split, id, evicted, handed);
            if (slot == null) {
                if (!refused) {
                    policy.onRemove(id);
                }
                meters.fillsDropped.increment();
            } else {
                slot.owner = id;
                slot.accounted = length;
                index.put(id, slot);
                usedBytes += length;
            }
        } finally {
            lock.unlock();
        }
        meters.evictions.increment(evicted.size());
        handed.forEach(page -> handDown.evicted(page.id(), page.bytes()));
        if (slot == null) {
            return false;
        }
        Fill filled;
        try {
            filled = fill(slot, id, length, source);
        } catch (RuntimeException | Error e) {
            release(id, slot); // a reserved slot left empty would hold its room until evicted
            throw e;
        }
        switch (filled) {
            case FILLED -> meters.fills.increment();
            case EVICTED -> {
                if (bytes != null && handDown.wants(id)) {
                    handDown.evicted(id, bytes.asReadOnlyBuffer()); // evicted before its bytes were in: they are here
                }
            }
            case SOURCE_FAILED -> {
                release(id, slot);
                meters.fillsDropped.increment();
                return false;
            }
        }
        return true;
    }

    private enum Fill { FILLED, EVICTED, SOURCE_FAILED }

    /** Lets go of a slot reserved for a page that never came, unless it was evicted meanwhile. */
    private void release(PageId id, Slot slot) {
        lock.lock();
        try {
            if (index.get(id) == slot) {
                removeLocked(id);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes a victim, first copying its bytes out if the hand-down wants them. */
    private void evictLocked(PageId victim, List<Evicted> handed) {
        Slot slot = index.get(victim);
        if (slot != null && handDown.wants(victim)) {
            long stamp = slot.lock.readLock();
            try {
                if (victim.equals(slot.content)) {
                    ByteBuffer bytes = ByteBuffer.allocate(slot.length);
                    bytes.put(slot.view.duplicate().limit(slot.length)).flip();
                    handed.add(new Evicted(victim, bytes));
                }
            } finally {
                slot.lock.unlockRead(stamp);
            }
        }
        removeLocked(victim);
    }

    /** The deepest split of a frame whose slots still hold {@code length} bytes: 0 for a whole page. */
    private int splitFor(int length) {
        return deepestSplit(pageSize, length, splits);
    }

    /** The deepest split, at most {@code limit}, of a page-sized frame whose slots still hold {@code bytes}. */
    private static int deepestSplit(int pageSize, int bytes, int limit) {
        int split = 0;
        while (split < limit && (pageSize >> (split + 1)) >= bytes) {
            split++;
        }
        return split;
    }

    /**
     * A slot of a frame split 2^{@code split} ways: a free one, one of a free or new frame, or one
     * freed by evicting pages in the policy's order; null if none can be had.
     */
    private Slot takeSlotLocked(int split, PageId incoming, List<PageId> evicted, List<Evicted> handed) {
        Slot slot;
        while ((slot = freeSlotLocked(split)) == null) {
            PageId victim = policy.victim();
            if (victim == null || victim.equals(incoming)) {
                return null;
            }
            evictLocked(victim, handed);
            evicted.add(victim);
        }
        return slot;
    }

    private Slot freeSlotLocked(int split) {
        Iterator<Slot> free = freeSlots.get(split).iterator();
        if (free.hasNext()) {
            Slot slot = free.next();
            free.remove();
            slot.frame.used++;
            return slot;
        }
        Frame frame = freeFrames.poll();
        if (frame == null) {
            if (allocatedFrames == maxFrames) {
                return null;
            }
            frame = allocateLocked();
        }
        frame.cut(split, pageSize);
        for (int i = 1; i < frame.slots.length; i++) {
            freeSlots.get(split).add(frame.slots[i]);
        }
        frame.used = 1;
        return frame.slots[0];
    }

    private Frame allocateLocked() {
        int framesPerSlab = (int) Math.max(1, Math.min(maxFrames, SLAB_BYTES / pageSize));
        int slab = allocatedFrames / framesPerSlab;
        if (slab == slabs.size()) {
            int frames = Math.min(framesPerSlab, maxFrames - allocatedFrames);
            slabs.add(ByteBuffer.allocateDirect(Math.multiplyExact(frames, pageSize)));
        }
        int offset = (allocatedFrames % framesPerSlab) * pageSize;
        ByteBuffer view = slabs.get(slab).duplicate().position(offset).limit(offset + pageSize).slice();
        allocatedFrames++;
        return new Frame(view);
    }

    /**
     * Copies the page into its slot under the slot's write lock, so that no reader sees it half
     * written; EVICTED if the slot was given away before it could be. A promotion holds the lock
     * through its read of the page file: readers of the slot miss meanwhile, and only the eviction
     * of this very slot (whose frame's locks the store lock then waits for) waits on that read.
     */
    private Fill fill(Slot slot, PageId id, int length, PageSource source) {
        long stamp = slot.lock.writeLock();
        try {
            if (!id.equals(slot.owner)) {
                return Fill.EVICTED;
            }
            slot.content = null;
            if (source.copyTo(slot.view.duplicate().limit(length)) != length) {
                return Fill.SOURCE_FAILED;
            }
            slot.length = length;
            slot.usedNs = nanoClock.getAsLong();
            slot.content = id;
            return Fill.FILLED;
        } finally {
            slot.lock.unlockWrite(stamp);
        }
    }

    private void removeLocked(PageId id) {
        Slot slot = index.remove(id);
        policy.onRemove(id);
        if (slot != null) {
            usedBytes -= slot.accounted;
            slot.owner = null;
            releaseLocked(slot);
        }
    }

    /** Gives a slot back: to its frame's free slots, or, as the frame's last, the frame back whole. */
    private void releaseLocked(Slot slot) {
        Frame frame = slot.frame;
        if (--frame.used > 0) {
            freeSlots.get(slot.split).add(slot);
            return;
        }
        for (Slot old : frame.slots) {
            if (old != slot) {
                freeSlots.get(old.split).remove(old);
            }
            // A reader still copying from it fails validation: the frame's bytes get a new layout
            long stamp = old.lock.writeLock();
            old.content = null;
            old.lock.unlockWrite(stamp);
        }
        frame.slots = null;
        freeFrames.push(frame);
    }

    /**
     * How long the page next in line for eviction has gone unread (or since it was stored): about how
     * long a page stored now would stay. {@link Long#MAX_VALUE} while the tier has room.
     */
    public long residenceNanos() {
        lock.lock();
        try {
            if (!freeFrames.isEmpty() || allocatedFrames < maxFrames) {
                return Long.MAX_VALUE;
            }
            PageId victim = policy.victim();
            Slot slot = victim == null ? null : index.get(victim);
            return slot == null ? Long.MAX_VALUE : nanoClock.getAsLong() - slot.usedNs;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int length(PageId id) {
        // No lock: every miss asks, and the store lock is held while a put allocates a 64 MiB slab.
        // The length is read before the owner, both volatile, so a slot given to another page
        // meanwhile answers -1 rather than the other page's length.
        Slot slot = index.get(id);
        if (slot == null) {
            return -1;
        }
        int accounted = slot.accounted;
        return id.equals(slot.owner) ? accounted : -1;
    }

    @Override
    public void delete(PageId id) {
        lock.lock();
        try {
            if (index.containsKey(id)) {
                removeLocked(id);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long usedBytes() {
        lock.lock();
        try {
            return usedBytes;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<String> tiers() {
        return List.of("memory");
    }

    @Override
    public long pageCount() {
        lock.lock();
        try {
            return index.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    /** Page id → length, for tests that check the accounting. */
    Map<PageId, Integer> snapshot() {
        lock.lock();
        try {
            Map<PageId, Integer> pages = new HashMap<>();
            index.forEach((id, slot) -> pages.put(id, slot.accounted));
            return pages;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            index.keySet().forEach(policy::onRemove);
            index.clear();
            freeFrames.clear();
            freeSlots.forEach(Set::clear);
            slabs.clear();
            allocatedFrames = 0;
            usedBytes = 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "memory tier (" + maxFrames + " pages of " + pageSize + " bytes, short pages in slots down to "
                + (pageSize >> splits) + ")";
    }

    /** One page-sized region of a slab: a whole page's slot, or cut into equal smaller ones. */
    private static final class Frame {
        final ByteBuffer view;
        /** The slots it is cut into now; null while it is free. Under the store lock. */
        Slot[] slots;
        /** How many of them hold a page. Under the store lock. */
        int used;

        Frame(ByteBuffer view) {
            this.view = view;
        }

        void cut(int split, int pageSize) {
            int size = pageSize >> split;
            slots = new Slot[1 << split];
            for (int i = 0; i < slots.length; i++) {
                ByteBuffer part = view.duplicate().position(i * size).limit((i + 1) * size).slice();
                slots[i] = new Slot(this, split, part);
            }
        }
    }

    /** A region of a frame holding one page. */
    private static final class Slot {
        final Frame frame;
        /** Its frame is cut 2^split ways. */
        final int split;
        final ByteBuffer view;
        final StampedLock lock = new StampedLock();
        /** The page this slot is reserved for; written under the store lock. */
        volatile PageId owner;
        /** The length of the page the slot is reserved for, as accounted; written under the store lock. */
        volatile int accounted;
        /** The page whose bytes the slot holds in full, and their length; under the slot's write lock. */
        volatile PageId content;
        volatile int length;
        /** When the page was stored or last read; a racy hint, for {@link #residenceNanos}. */
        volatile long usedNs;

        Slot(Frame frame, int split, ByteBuffer view) {
            this.frame = frame;
            this.split = split;
            this.view = view;
        }
    }
}
