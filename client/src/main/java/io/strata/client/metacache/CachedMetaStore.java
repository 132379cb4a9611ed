package io.strata.client.metacache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.RemovedLink;
import io.strata.meta.Renamed;
import io.strata.meta.SetAttr;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.DumpSource;
import io.strata.meta.dump.LoadTarget;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * The heap metadata cache: a {@link MetaStore} that remembers inodes and name lookups (found or
 * not) for a short time, in front of any engine.
 *
 * <p>Being a decorator, it sees every change this client makes, with its arguments and results,
 * and updates or drops exactly the entries that change touches, so a client always sees its own
 * changes at once. Other clients' changes show when entries expire. An inode's extended attribute
 * names are cached too, so that asking a file for an attribute it does not have (ls asks every file
 * for its ACL and its security label) needs no engine call; values, symlink targets and counters
 * pass straight through; listings answer lookups and, until this client changes anything, stats.
 *
 * <p>A listing that read a whole directory (one page, the last) keeps its names as one entry
 * (weighed by its length) instead of an entry per name, so listing the directory again within the
 * expiry (a second find or ls -R, a build walking its tree) reads nothing from the engine. It
 * answers lookups of the names it holds; a name it lacks is looked up as any other, so another
 * client's new name shows to a lookup within the negative expiry, as without it. Every change to a
 * directory's names (create, link, unlink, rmdir, rename, a merged under-storage listing) drops
 * its listing; a create, link, unlink or rmdir brings the directory's cached inode along (new
 * times, a subdirectory's link), a rename forgets both directories' inodes. Pages of larger
 * directories warm a lookup entry per name.
 *
 * <p>A listing read with its inodes (readdirPlus) keeps them in the same entry, trusted until this
 * client's next change of any kind, since a listing cannot tell which of its inodes a change
 * touched. While trusted, they serve the next listing, and a name looked up in it gets its inode
 * cached (what looks a name up asks for the inode next). An inode cached on its own answers before
 * the listing's copy, and a listing read from the engine refreshes it, so a stat and a listing show
 * the same. After a change, a page is served only if each of its entries' inodes is cached on its
 * own, else read again. Its subdirectories' inodes are cached on their own from the start: a walk
 * (find, ls -R) opens each directory it lists by its inode, with no lookup. Remembering every inode
 * of a cold listing as an entry of its own took a sixth of a cold {@code find} over 10,000 files.
 *
 * <p>A directory whose names miss the cache twice within the expiry is being scanned (ls -l, a
 * stat per file, a build tree walk): the second miss reads a page of the directory with its inodes
 * ({@link MetaStore#readdirPlus}, one engine call) and remembers it all, its names as a listing
 * and its inodes each on its own (each lookup asks for its inode next), so the names that follow
 * are answered from the heap. A directory is read so at most once per expiry;
 * in a directory larger than the page, names past it are looked up one by one as before. Only
 * over engines that read such a page in one call ({@link MetaStore#readdirPlusIsOneRead}): on the
 * others it would cost a round trip per entry.
 *
 * <p>Concurrent calls must not leave an older value behind a newer change: a thread that read an
 * inode (or changed it) can come to remember it after another thread's change forgot it. So every
 * forget first bumps {@link #forgets}, and a value is remembered only if no forget happened since
 * the engine call that produced it began, else its key is dropped (checked inside the entry's
 * atomic compute; a forget that comes after the check removes the value again, its invalidation
 * waiting for the compute). A change counts as a forget before it remembers its own result: else
 * a lookup that missed a name just before this client created it (two Spark tasks making one
 * directory) could put its miss over the new entry, and the creator's next lookup fail. A change
 * the engine refuses forgets what it touched: the refusal (EEXIST) can come from another thread's
 * change that has reached the engine and not yet the cache.
 * With several threads changing metadata at once some results are then not remembered and are
 * read again from the engine: a miss, never a stale hit.
 */
public final class CachedMetaStore implements MetaStore {
    /** A cache key: an inode by number, or a name in a directory. */
    private sealed interface Key permits InodeKey, EntryKey, XattrsKey, ListingKey {}

    /**
     * An inode by number. Its equals and hashCode are written out, as are the other keys': a
     * record's own are bootstrapped through method handles ({@code ObjectMethods}), which the AOT
     * cache does not keep and a fresh JVM runs interpreted for its first thousands of cache reads
     * (3 % of a cold find's FUSE threads).
     */
    private record InodeKey(long ino) implements Key {
        @Override
        public int hashCode() {
            return Long.hashCode(ino);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof InodeKey other && ino == other.ino;
        }
    }

    /**
     * A name in a directory. The parent is mixed into the hash: the record's own hash, 31 * parent
     * + hash(name), gives (p, "f0010") and (p + 1, "f0000") the same value, so the files of
     * neighbouring directories with numbered names piled into the same hash bins.
     */
    private record EntryKey(long parent, String name) implements Key {
        @Override
        public int hashCode() {
            return name.hashCode() ^ Long.hashCode(parent * 0x9E3779B97F4A7C15L);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof EntryKey other && parent == other.parent && name.equals(other.name);
        }
    }

    /** The names of an inode's extended attributes. */
    private record XattrsKey(long ino) implements Key {
        @Override
        public int hashCode() {
            return Long.hashCode(ino) * 31 + 1;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof XattrsKey other && ino == other.ino;
        }
    }

    /** A whole directory's names, in the engine's order. */
    private record ListingKey(long dir) implements Key {
        @Override
        public int hashCode() {
            return Long.hashCode(dir) * 31 + 2;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ListingKey other && dir == other.dir;
        }
    }

    /**
     * Every entry of a directory, in the order one listing read them, and where each name is in
     * that order; see the class comment. A listing read with its inodes (readdirPlus) keeps them,
     * in the same order, with the stamp its engine call began at: they are current for as long as
     * no forget has come since (see {@link #current}); a listing of names alone has none.
     */
    private record Listing(List<Dentry> entries, Map<String, Integer> positions, List<Inode> inodes, long stamp) {
        static Listing of(List<Dentry> entries, List<Inode> inodes, long stamp) {
            Map<String, Integer> positions = new HashMap<>(entries.size() * 4 / 3 + 1);
            for (int i = 0; i < entries.size(); i++) {
                positions.put(entries.get(i).name(), i);
            }
            return new Listing(List.copyOf(entries), positions, inodes == null ? null : List.copyOf(inodes), stamp);
        }

        /**
         * What it weighs against a cached inode (~170 bytes of heap): its dentries and their
         * positions, ~50 bytes a name, and its inodes if it has them.
         */
        int weight() {
            return 1 + entries.size() / 4 + (inodes == null ? 0 : inodes.size());
        }

        /** Where the entry called {@code name} is, or -1 if the directory has none. */
        int indexOf(String name) {
            Integer at = positions.get(name);
            return at == null ? -1 : at;
        }

        /** Where the page after the name {@code after} starts; -1 if that name is not listed. */
        int start(String after) {
            if (after == null) {
                return 0;
            }
            Integer at = positions.get(after);
            return at == null ? -1 : at + 1;
        }

        /** Where a page of up to {@code limit} entries that starts at {@code from} ends. */
        int end(int from, int limit) {
            return (int) Math.min(entries.size(), (long) from + limit);
        }
    }

    /** The largest directory whose listing is kept whole. */
    static final int LISTING_ENTRIES = 10_000;

    private record XattrNames(List<String> names) {}

    /** Entries a directory scan reads at once: one engine call, a few dozen KiB of heap. */
    static final int LOOKAHEAD_ENTRIES = 512;

    private final MetaStore store;
    private final Cache<Key, Object> cache;
    /**
     * Directories whose lookups missed within the expiry: {@link #MISSED} after one miss,
     * {@link #READ} once a page of them was read. Bounded; losing one costs a lookup, no result.
     */
    private final Cache<Long, Boolean> scans;
    private static final Boolean MISSED = Boolean.FALSE;
    private static final Boolean READ = Boolean.TRUE;
    /** Forgets so far: the stamp an engine call takes before it starts (see the class comment). */
    private final AtomicLong forgets = new AtomicLong();
    /** Caffeine's upkeep, on the writing thread; once per page when a page is remembered. */
    private final BatchedMaintenance maintenance = new BatchedMaintenance();

    /** A cached lookup that found nothing; its own, shorter expiry. */
    private static final Object ABSENT = new Object() {
        @Override
        public String toString() {
            return "ABSENT";
        }
    };

    public CachedMetaStore(MetaStore store, long maximumEntries, Duration expire, Duration negativeExpire,
                           Ticker ticker) {
        this.store = requireNonNull(store, "store is null");
        requireNonNull(expire, "expire is null");
        requireNonNull(negativeExpire, "negativeExpire is null");
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maximumEntries)
                .weigher((Key key, Object value) -> value instanceof Listing listing ? listing.weight() : 1)
                .executor(maintenance)
                .expireAfter(new Expiry<Key, Object>() {
                    @Override
                    public long expireAfterCreate(Key key, Object value, long currentTime) {
                        return (value == ABSENT ? negativeExpire : expire).toNanos();
                    }

                    @Override
                    public long expireAfterUpdate(Key key, Object value, long currentTime, long currentDuration) {
                        return expireAfterCreate(key, value, currentTime);
                    }

                    @Override
                    public long expireAfterRead(Key key, Object value, long currentTime, long currentDuration) {
                        return currentDuration; // reading does not make an entry fresher
                    }
                })
                .ticker(requireNonNull(ticker, "ticker is null"))
                .recordStats()
                .build();
        this.scans = Caffeine.newBuilder()
                .maximumSize(SCANS_TRACKED)
                .executor(Runnable::run)
                .expireAfterWrite(expire)
                .ticker(ticker)
                .build();
    }

    private static final int SCANS_TRACKED = 4096;

    /** The underlying engine. */
    public MetaStore store() {
        return store;
    }

    public CacheStats cacheStats() {
        return cache.stats();
    }

    public long size() {
        return cache.estimatedSize();
    }

    /** Runs pending evictions now (Caffeine evicts asynchronously); for tests and stats. */
    public void cleanUp() {
        cache.cleanUp();
    }

    /** Drops every entry; the next lookups go to the engine. */
    public void invalidateAll() {
        forgetAll();
    }

    // ---- cached reads -------------------------------------------------------------------------

    @Override
    public Inode getInode(long ino) throws IOException {
        Object cached = cache.getIfPresent(new InodeKey(ino));
        if (cached instanceof Inode inode) {
            return inode;
        }
        long stamp = forgets.get();
        return remember(store.getInode(ino), stamp);
    }

    @Override
    public Optional<Dentry> lookup(long parent, String name) throws IOException {
        EntryKey key = new EntryKey(parent, name);
        Object cached = cache.getIfPresent(key);
        if (cached == ABSENT) {
            return Optional.empty();
        }
        if (cached instanceof Dentry dentry) {
            return Optional.of(dentry);
        }
        if (cache.policy().getIfPresentQuietly(new ListingKey(parent)) instanceof Listing listing) {
            int at = listing.indexOf(name);
            if (at >= 0) { // a name missing from it is looked up: the engine may have it by now
                Inode inode = current(listing) ? listing.inodes().get(at) : null;
                if (inode != null && cachedInode(inode.ino()) == null) {
                    remember(inode, listing.stamp()); // what looks a name up asks for its inode next
                }
                return Optional.of(listing.entries().get(at));
            }
        }
        long stamp = forgets.get();
        Object answered = store.readdirPlusIsOneRead() && scanning(parent) ? lookAhead(parent, name, stamp) : null;
        if (answered != null) {
            return answered instanceof Dentry dentry ? Optional.of(dentry) : Optional.empty();
        }
        Optional<Dentry> found = store.lookup(parent, name);
        put(key, found.isPresent() ? found.get() : ABSENT, stamp);
        return found;
    }

    /** Notes a miss in {@code dir}; true when it is the second within the expiry (read the directory). */
    private boolean scanning(long dir) {
        ConcurrentMap<Long, Boolean> states = scans.asMap();
        if (states.replace(dir, MISSED, READ)) {
            return true;
        }
        states.putIfAbsent(dir, MISSED);
        return false;
    }

    /**
     * Reads the first page of {@code dir} with its inodes, its names remembered as any listing's and
     * its inodes each on its own, as the lookups that follow ask for them. Returns
     * what it shows of {@code name}: its dentry, {@link #ABSENT} when the page is the whole
     * directory and does not hold it, or null when the page cannot tell (a larger directory, or no
     * directory to read). {@code stamp} was taken before the page was read.
     */
    private Object lookAhead(long dir, String name, long stamp) throws IOException {
        List<DirectoryEntry> page;
        try {
            page = readdirPlus(dir, null, LOOKAHEAD_ENTRIES, true);
        } catch (FsException e) {
            return null; // not a directory, or gone: the lookup says which
        }
        for (DirectoryEntry entry : page) {
            if (entry.dentry().name().equals(name)) {
                return entry.dentry();
            }
        }
        if (page.size() == LOOKAHEAD_ENTRIES) {
            return null;
        }
        put(new EntryKey(dir, name), ABSENT, stamp);
        return ABSENT;
    }

    @Override
    public boolean readdirPlusIsOneRead() {
        return store.readdirPlusIsOneRead();
    }

    @Override
    public void prefetch() throws IOException {
        store.prefetch();
    }

    @Override
    public List<Dentry> readdir(long dir, String after, int limit) throws IOException {
        if (cache.getIfPresent(new ListingKey(dir)) instanceof Listing listing) {
            int from = listing.start(after);
            if (from >= 0) {
                return listing.entries().subList(from, listing.end(from, limit));
            }
        }
        long stamp = forgets.get();
        List<Dentry> page = store.readdir(dir, after, limit);
        maintenance.batch(() -> {
            if (!rememberListing(dir, after, limit, page, null, stamp)) {
                page.forEach(dentry -> remember(dentry, stamp));
            }
        });
        return page;
    }

    @Override
    public List<DirectoryEntry> readdirPlus(long dir, String after, int limit) throws IOException {
        return readdirPlus(dir, after, limit, false);
    }

    /**
     * A page with its inodes, from the heap or the engine. {@code forLookups}: read ahead of a scan
     * of lookups ({@link #lookAhead}), each of which asks for its inode next, so the inodes are
     * cached each on its own in the page's one batch, and the listing keeps the names only; one
     * cache write per lookup instead would pay a maintenance pass each.
     */
    private List<DirectoryEntry> readdirPlus(long dir, String after, int limit, boolean forLookups)
            throws IOException {
        List<DirectoryEntry> cached = cachedPage(dir, after, limit);
        if (cached != null) {
            return cached;
        }
        long stamp = forgets.get();
        List<DirectoryEntry> page = store.readdirPlus(dir, after, limit);
        maintenance.batch(() -> {
            List<Dentry> names = new ArrayList<>(page.size());
            List<Inode> inodes = new ArrayList<>(page.size());
            for (DirectoryEntry entry : page) {
                names.add(entry.dentry());
                inodes.add(entry.inode());
            }
            boolean kept = rememberListing(dir, after, limit, names, forLookups ? null : inodes, stamp);
            if (!kept) {
                names.forEach(dentry -> remember(dentry, stamp));
            }
            for (Inode inode : inodes) {
                // A walk (find, ls -R) opens the directories it lists next, by inode; and an inode
                // cached on its own is refreshed, as it answers stats before the listing does.
                if (!kept || forLookups || inode.isDirectory() || cachedInode(inode.ino()) != null) {
                    remember(inode, stamp);
                }
            }
        });
        return page;
    }

    /**
     * A page of {@code dir} from its cached listing, each entry with its inode cached on its own or
     * else, while they are current, the listing's; null if an entry has neither.
     */
    private List<DirectoryEntry> cachedPage(long dir, String after, int limit) {
        if (!(cache.getIfPresent(new ListingKey(dir)) instanceof Listing listing)) {
            return null;
        }
        int from = listing.start(after);
        if (from < 0) {
            return null;
        }
        int to = listing.end(from, limit);
        boolean current = current(listing);
        List<DirectoryEntry> page = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            Dentry dentry = listing.entries().get(i);
            Inode inode = cachedInode(dentry.ino());
            if (inode == null && current) {
                inode = listing.inodes().get(i);
            }
            if (inode == null) {
                return null;
            }
            page.add(new DirectoryEntry(dentry, inode));
        }
        return page;
    }

    /** The inode cached on its own, if it is; read quietly (a listing's read counts as the listing's). */
    private Inode cachedInode(long ino) {
        return cache.policy().getIfPresentQuietly(new InodeKey(ino)) instanceof Inode inode ? inode : null;
    }

    /**
     * Whether a listing's inodes are still what the engine holds, as far as this client knows: it
     * has them, and nothing was forgotten since its engine call began. Any change made through this
     * client forgets, so after one the listing's names still serve and its inodes do not (each
     * entry's own cached inode, or the engine, answers instead): a miss, never a stale hit.
     */
    private boolean current(Listing listing) {
        return listing.inodes() != null && forgets.get() == listing.stamp();
    }

    /**
     * Keeps a page that is a whole directory (the first and the last) as its listing, with its
     * inodes if it was read with them, which then answers lookups of its names too; false for any
     * other page, whose entries the caller remembers one by one.
     */
    private boolean rememberListing(long dir, String after, int limit, List<Dentry> page, List<Inode> inodes,
                                    long stamp) {
        if (after != null || page.size() >= limit || page.size() > LISTING_ENTRIES) {
            return false;
        }
        put(new ListingKey(dir), Listing.of(page, inodes, stamp), stamp);
        return true;
    }

    // ---- changes: pass through, then bring the cache along -------------------------------------

    @Override
    public Inode create(long parent, String name, io.strata.meta.NewInode spec) throws IOException {
        long stamp = forgets.get();
        Inode parentBefore = cachedInode(parent);
        Inode created;
        try {
            created = store.create(parent, name, spec);
        } catch (IOException | RuntimeException e) {
            forgetRefused(parent, name);
            throw e;
        }
        nameAdded(parent, name, created, parentBefore, created.isDirectory() ? 1 : 0, spec.timeNs(), stamp);
        return created;
    }

    @Override
    public Inode link(long ino, long parent, String name, long nowNs) throws IOException {
        long stamp = forgets.get();
        Inode parentBefore = cachedInode(parent);
        Inode linked;
        try {
            linked = store.link(ino, parent, name, nowNs);
        } catch (IOException | RuntimeException e) {
            forgetRefused(parent, name);
            forgetInode(ino);
            throw e;
        }
        nameAdded(parent, name, linked, parentBefore, 0, nowNs, stamp);
        return linked;
    }

    @Override
    public RemovedLink unlink(long parent, String name, long nowNs) throws IOException {
        long stamp = forgets.get();
        Inode parentBefore = cachedInode(parent);
        RemovedLink removed;
        try {
            removed = store.unlink(parent, name, nowNs);
        } catch (IOException | RuntimeException e) {
            forgetRefused(parent, name);
            throw e;
        }
        afterRemoval(removed.inode(), removed.deleted(), nameRemoved(parent, name, parentBefore, 0, nowNs, stamp));
        return removed;
    }

    @Override
    public Inode rmdir(long parent, String name, long nowNs) throws IOException {
        long stamp = forgets.get();
        Inode parentBefore = cachedInode(parent);
        Inode removed;
        try {
            removed = store.rmdir(parent, name, nowNs);
        } catch (IOException | RuntimeException e) {
            forgetRefused(parent, name);
            throw e;
        }
        nameRemoved(parent, name, parentBefore, -1, nowNs, stamp); // the removed directory's ".." goes
        forgetInode(removed.ino());
        return removed;
    }

    @Override
    public Renamed rename(long srcParent, String srcName, long dstParent, String dstName, long nowNs)
            throws IOException {
        long stamp = forgets.get();
        try {
            Renamed renamed = store.rename(srcParent, srcName, dstParent, dstName, nowNs);
            long changed = changed(stamp);
            remember(renamed.moved(), changed);
            renamed.replaced().ifPresent(r -> afterRemoval(r.inode(), r.deleted(), changed));
            return renamed;
        } finally {
            // Whatever happened, these names and parents may have changed.
            forgetEntry(srcParent, srcName);
            forgetEntry(dstParent, dstName);
            forgetInode(srcParent);
            forgetInode(dstParent);
        }
    }

    /**
     * After the engine refused to make or remove {@code name} in {@code parent}: its answer may
     * contradict what is cached (EEXIST for a name cached as absent, when another thread of this
     * client made it and has not yet come back to remember it; ENOENT for a name cached as present
     * that another thread removed; ENOTDIR for a parent cached as a directory), so both go and the
     * next lookup asks the engine.
     */
    private void forgetRefused(long parent, String name) {
        forgetEntry(parent, name);
        forgetInode(parent);
    }

    /**
     * After the engine added {@code name} for {@code inode} to {@code parent} in a call that began at
     * {@code stamp}: the name and the inode are remembered and the directory is brought along
     * ({@link #touched}).
     */
    private void nameAdded(long parent, String name, Inode inode, Inode parentBefore, int nlinkDelta, long timeNs,
                           long stamp) {
        long changed = changed(stamp);
        remember(new Dentry(parent, name, inode.ino(), inode.type()), changed);
        remember(inode, changed);
        touched(parent, parentBefore, nlinkDelta, timeNs, changed);
    }

    /**
     * After the engine removed {@code name} from {@code parent} in a call that began at {@code
     * stamp}: the name goes and the directory is brought along ({@link #touched}); returns the
     * change's own stamp.
     */
    private long nameRemoved(long parent, String name, Inode parentBefore, int nlinkDelta, long nowNs, long stamp) {
        long changed = changed(stamp);
        cache.invalidate(new EntryKey(parent, name)); // changed(stamp) counted as its forget
        touched(parent, parentBefore, nlinkDelta, nowNs, changed);
        return changed;
    }

    private void afterRemoval(Inode inode, boolean deleted, long stamp) {
        if (deleted) {
            forgetInode(inode.ino());
        } else {
            remember(inode, stamp);
        }
    }

    @Override
    public Inode setAttr(long ino, SetAttr change) throws IOException {
        long stamp = forgets.get();
        try {
            Inode changedInode = store.setAttr(ino, change);
            return remember(changedInode, changed(stamp));
        } catch (IOException | RuntimeException e) {
            forgetInode(ino);
            throw e;
        }
    }

    @Override
    public int mergeListing(long dir, List<ListedEntry> entries) throws IOException {
        try {
            return store.mergeListing(dir, entries);
        } finally {
            // Names that were absent may exist now; the directory's nlink may have grown.
            entries.forEach(e -> forgetEntry(dir, e.name()));
            forgetInode(dir);
        }
    }

    @Override
    public void markSynced(long dir, long syncedNs) throws IOException {
        try {
            store.markSynced(dir, syncedNs);
        } finally {
            forgetInode(dir);
        }
    }

    // ---- uncached, but for xattr names ---------------------------------------------------------

    @Override
    public String readlink(long ino) throws IOException {
        return store.readlink(ino);
    }

    @Override
    public Optional<byte[]> getXattr(long ino, String name) throws IOException {
        if (!listXattrs(ino).contains(name)) {
            return Optional.empty();
        }
        return store.getXattr(ino, name);
    }

    @Override
    public void setXattr(long ino, String name, byte[] value, XattrMode mode) throws IOException {
        try {
            store.setXattr(ino, name, value, mode);
        } finally {
            forget(new XattrsKey(ino));
        }
    }

    @Override
    public List<String> listXattrs(long ino) throws IOException {
        XattrsKey key = new XattrsKey(ino);
        if (cache.getIfPresent(key) instanceof XattrNames cached) {
            return cached.names();
        }
        long stamp = forgets.get();
        List<String> names = List.copyOf(store.listXattrs(ino));
        put(key, new XattrNames(names), stamp);
        return names;
    }

    @Override
    public void removeXattr(long ino, String name) throws IOException {
        try {
            store.removeXattr(ino, name);
        } finally {
            forget(new XattrsKey(ino));
        }
    }

    @Override
    public VolumeStats stats() throws IOException {
        return store.stats();
    }

    @Override
    public Optional<String> getSetting(String key) throws IOException {
        return store.getSetting(key);
    }

    @Override
    public void putSetting(String key, String value) throws IOException {
        store.putSetting(key, value);
    }

    /** A dump reads the engine directly: nothing to cache. */
    @Override
    public DumpSource dumpSource() throws IOException {
        return store.dumpSource();
    }

    /** A load rewrites the volume underneath: every cached entry goes. */
    @Override
    public LoadTarget loadTarget() throws IOException {
        forgetAll();
        return store.loadTarget();
    }

    @Override
    public void close() throws IOException {
        forgetAll();
        store.close();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private Inode remember(Inode inode, long stamp) {
        put(new InodeKey(inode.ino()), inode, stamp);
        return inode;
    }

    private void remember(Dentry dentry, long stamp) {
        put(new EntryKey(dentry.parent(), dentry.name()), dentry, stamp);
    }

    /**
     * The stamp to remember a change's results with, {@code before} taken before its engine call.
     * The change counts as a forget: a read that began before it may have read the old value (or
     * no entry at all) and must not put that over the new one when it finishes. If another forget
     * came during the change, another change may be newer than this one: {@link #STALE}, and the
     * results' keys are dropped instead of remembered.
     */
    private long changed(long before) {
        long own = forgets.incrementAndGet();
        return own == before + 1 ? own : STALE;
    }

    /** A stamp no engine call has: what is put with it is dropped. */
    private static final long STALE = -1;

    /**
     * Caches {@code value}, read or made by an engine call that began at {@code stamp}; if a forget
     * came since, drops the key instead (what was cached may be older than {@code value}).
     */
    private void put(Key key, Object value, long stamp) {
        cache.asMap().compute(key, (k, old) -> forgets.get() == stamp ? value : null);
    }

    /**
     * Brings a directory's cached inode along a change that added or removed one of its names, as
     * the contracts of {@link MetaStore#create}, {@link MetaStore#link}, {@link MetaStore#unlink}
     * and {@link MetaStore#rmdir} have it: mtime and ctime {@code timeNs}, nlink changed by {@code
     * nlinkDelta} (the ".." of a subdirectory made or removed); drops its listing. The inode keeps
     * the expiry it had left: its other fields are as old as they were, and another client's change
     * to them shows no later than it would have. Only the inode cached before the change ({@code
     * before}, the same object) is brought along: one put since may hold the change already
     * (applied twice, a subdirectory's link would count twice) or not (a read that began before
     * it), so it is dropped instead; with nothing cached before, or when another change came during
     * this one ({@code stamp} {@link #STALE}), the inode is forgotten as after any other change: a
     * miss, never a stale hit. Forgetting it always cost every create or removal in a directory a
     * miss: the kernel checks the directory's permissions before the next name in it and asks for
     * its attributes, which the change left stale there (docs/PERFORMANCE.md, forty-eighth and
     * forty-ninth rounds).
     */
    private void touched(long dir, Inode before, int nlinkDelta, long timeNs, long stamp) {
        if (stamp == STALE || before == null) {
            forgetInode(dir);
            return;
        }
        cache.invalidate(new ListingKey(dir)); // pending puts of it stopped at the change's forget count
        Inode after = before.withTimes(before.atimeNs(), timeNs, timeNs).withNlink(before.nlink() + nlinkDelta);
        InodeKey key = new InodeKey(dir);
        Policy.VarExpiration<Key, Object> expiry = cache.policy().expireVariably().orElseThrow();
        expiry.getExpiresAfter(key).ifPresent(left -> expiry.compute(key,
                (k, old) -> old == before && forgets.get() == stamp ? after : null, left));
    }

    private void forgetInode(long ino) {
        forget(new InodeKey(ino));
        // The forget above already stopped pending puts of these.
        cache.invalidate(new XattrsKey(ino));
        cache.invalidate(new ListingKey(ino));
    }

    private void forgetEntry(long parent, String name) {
        forget(new EntryKey(parent, name));
    }

    private void forgetAll() {
        forgets.incrementAndGet();
        cache.invalidateAll();
        scans.invalidateAll();
    }

    private void forget(Key key) {
        forgets.incrementAndGet(); // first: a put that has not checked yet will not remember
        cache.invalidate(key);
    }
}
