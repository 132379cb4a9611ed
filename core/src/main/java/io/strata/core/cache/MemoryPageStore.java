package io.strata.core.cache;

import io.strata.core.cache.evict.EvictionPolicy;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The memory tier: pages in off-heap slots of one page each, carved from direct-buffer slabs
 * allocated as the tier fills (never more than its capacity), so the heap and the GC never see
 * page data.
 *
 * <p>Hits take no lock: the index (page → slot) is a concurrent map, and the access is recorded in
 * the eviction policy only when its lock is free at that moment (as Caffeine drops reads from its
 * buffers under contention), so many readers on few cores do not queue behind one another. Puts,
 * evictions and the policy sit under one lock held for map operations only; copies run outside
 * it. A slot can be evicted and reused while a reader is still copying
 * from it, so readers copy optimistically: each slot has a {@link StampedLock} that writers hold
 * while filling it, and a reader whose copy overlapped a write sees its stamp fail validation and
 * reports a miss instead of torn bytes. A slot records the page whose bytes it holds, set only
 * once they are all in, so a reserved but unfilled slot is a miss as well.
 */
public final class MemoryPageStore implements PageStore {
    /** Slots per slab: 64 MiB of 1 MiB pages; fewer for a smaller tier. */
    private static final long SLAB_BYTES = 64L << 20;

    private final int pageSize;
    private final long capacityBytes;
    private final int maxSlots;
    private final EvictionPolicy policy;
    private final CacheMetrics.Tier meters;
    private final LongSupplier nanoClock;
    /** Guards the policy, the free list, the slabs and every change to the index. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Read without the lock by hits; changed only under it. */
    private final Map<PageId, Slot> index = new ConcurrentHashMap<>();
    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    private final List<ByteBuffer> slabs = new ArrayList<>();
    private int allocatedSlots;
    private long usedBytes;

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
        this.maxSlots = (int) Math.min(Integer.MAX_VALUE, capacityBytes / pageSize);
        this.policy = requireNonNull(policy, "policy is null");
        this.meters = metrics.tier("memory");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        metrics.gauges("memory", this);
    }

    public int pageSize() {
        return pageSize;
    }

    @Override
    public int read(PageId id, int pageOffset, ByteBuffer dst) {
        recordAccess(id);
        Slot slot = index.get(id);
        if (slot == null) {
            meters.misses.increment();
            return -1;
        }
        long stamp = slot.lock.tryOptimisticRead();
        int start = dst.position();
        int copied = copyOut(slot, id, pageOffset, dst);
        if (copied < 0 || !slot.lock.validate(stamp)) {
            dst.position(start);
            meters.misses.increment();
            return -1;
        }
        slot.usedNs = nanoClock.getAsLong();
        meters.hits.increment();
        meters.bytesRead.increment(copied);
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

    @Override
    public boolean put(PageId id, ByteBuffer data) {
        int length = data.remaining();
        if (id.pageSize() != pageSize || length > pageSize) {
            meters.fillsDropped.increment();
            return false;
        }
        Slot slot;
        List<PageId> evicted;
        lock.lock();
        try {
            if (index.containsKey(id)) {
                return true;
            }
            evicted = new ArrayList<>(policy.onInsert(id, pageSize));
            if (evicted.remove(id)) {
                evicted.forEach(this::removeLocked);
                meters.evictions.increment(evicted.size());
                meters.fillsDropped.increment();
                return false;
            }
            evicted.forEach(this::removeLocked);
            slot = takeSlotLocked(id, evicted);
            if (slot == null) {
                policy.onRemove(id);
                meters.evictions.increment(evicted.size());
                meters.fillsDropped.increment();
                return false;
            }
            slot.owner = id;
            slot.accounted = length;
            index.put(id, slot);
            usedBytes += length;
        } finally {
            lock.unlock();
        }
        meters.evictions.increment(evicted.size());
        fill(slot, id, data);
        meters.fills.increment();
        return true;
    }

    /** A free slot, a new one while under the slot budget, or the victim's; null if none can be had. */
    private Slot takeSlotLocked(PageId incoming, List<PageId> evicted) {
        while (free.isEmpty() && allocatedSlots >= maxSlots) {
            PageId victim = policy.victim();
            if (victim == null || victim.equals(incoming)) {
                return null;
            }
            removeLocked(victim);
            evicted.add(victim);
        }
        Slot slot = free.poll();
        return slot != null ? slot : allocateLocked();
    }

    private Slot allocateLocked() {
        int slotsPerSlab = (int) Math.max(1, Math.min(maxSlots, SLAB_BYTES / pageSize));
        int slab = allocatedSlots / slotsPerSlab;
        if (slab == slabs.size()) {
            int slots = Math.min(slotsPerSlab, maxSlots - allocatedSlots);
            slabs.add(ByteBuffer.allocateDirect(Math.multiplyExact(slots, pageSize)));
        }
        int offset = (allocatedSlots % slotsPerSlab) * pageSize;
        ByteBuffer view = slabs.get(slab).duplicate().position(offset).limit(offset + pageSize).slice();
        allocatedSlots++;
        return new Slot(view);
    }

    /** Copies the page in under the slot's write lock, unless the slot was given away meanwhile. */
    private void fill(Slot slot, PageId id, ByteBuffer data) {
        long stamp = slot.lock.writeLock();
        try {
            if (!id.equals(slot.owner)) {
                return;
            }
            slot.content = null;
            slot.view.duplicate().put(data.duplicate());
            slot.length = data.remaining();
            slot.usedNs = nanoClock.getAsLong();
            slot.content = id;
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
            free.push(slot);
        }
    }

    /**
     * How long the page next in line for eviction has gone unread (or since it was stored): about how
     * long a page stored now would stay. {@link Long#MAX_VALUE} while the tier has room.
     */
    public long residenceNanos() {
        lock.lock();
        try {
            if (!free.isEmpty() || allocatedSlots < maxSlots) {
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
            free.clear();
            slabs.clear();
            allocatedSlots = 0;
            usedBytes = 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "memory tier (" + maxSlots + " pages of " + pageSize + " bytes)";
    }

    /** One page-sized region of a slab. */
    private static final class Slot {
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

        Slot(ByteBuffer view) {
            this.view = view;
        }
    }
}
