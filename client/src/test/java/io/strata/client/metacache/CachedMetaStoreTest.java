package io.strata.client.metacache;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.meta.Dentry;
import io.strata.meta.DirectoryEntry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import io.strata.meta.XattrMode;
import io.strata.meta.memory.MemoryMetaStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two clients over one engine: each sees its own changes at once, the other's once entries expire.
 */
class CachedMetaStoreTest {
    private static final Duration EXPIRE = Duration.ofSeconds(2);
    private static final Duration NEGATIVE = Duration.ofMillis(500);

    private final AtomicLong nanos = new AtomicLong();
    private final MetaStore shared = new MemoryMetaStore();
    private final CachedMetaStore first = new CachedMetaStore(shared, 1000, EXPIRE, NEGATIVE, nanos::get);
    private final CachedMetaStore second = new CachedMetaStore(shared, 1000, EXPIRE, NEGATIVE, nanos::get);

    @AfterEach
    void close() throws IOException {
        shared.close();
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    @Test
    void repeatedLookupsAreServedFromTheHeap() throws IOException {
        first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        first.invalidateAll();

        for (int i = 0; i < 10; i++) {
            assertThat(first.lookup(Inode.ROOT, "f")).isPresent();
        }
        assertThat(first.cacheStats().hitCount()).isEqualTo(9);
        assertThat(first.cacheStats().missCount()).isEqualTo(1);
    }

    @Test
    void askingForAnXattrAFileDoesNotHaveIsAnsweredFromTheCachedNames() throws IOException {
        Inode file = first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        first.setXattr(file.ino(), "user.a", new byte[] {1}, XattrMode.UPSERT);
        assertThat(first.getXattr(file.ino(), "user.a")).hasValueSatisfying(v -> assertThat(v).containsExactly(1));
        long misses = first.cacheStats().missCount();

        for (int i = 0; i < 10; i++) {
            assertThat(first.getXattr(file.ino(), "security.selinux")).isEmpty();
        }
        assertThat(first.cacheStats().missCount()).isEqualTo(misses);
    }

    @Test
    void ownXattrChangesShowAtOnceAndAnotherClientsAfterExpiry() throws IOException {
        Inode file = first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        assertThat(first.getXattr(file.ino(), "user.a")).isEmpty();
        assertThat(second.getXattr(file.ino(), "user.a")).isEmpty();

        first.setXattr(file.ino(), "user.a", new byte[] {1}, XattrMode.UPSERT);
        assertThat(first.getXattr(file.ino(), "user.a")).isPresent();
        assertThat(second.getXattr(file.ino(), "user.a")).isEmpty(); // its cached names are still trusted

        advance(EXPIRE.plusMillis(1));
        assertThat(second.getXattr(file.ino(), "user.a")).isPresent();
        first.removeXattr(file.ino(), "user.a");
        assertThat(first.listXattrs(file.ino())).isEmpty();
    }

    @Test
    void ownChangesShowAtOnce() throws IOException {
        Inode file = first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        first.getInode(file.ino());

        first.setAttr(file.ino(), SetAttr.mode(0600, 2));
        first.rename(Inode.ROOT, "f", Inode.ROOT, "g", 3);

        assertThat(first.getInode(file.ino()).mode()).isEqualTo(0600);
        assertThat(first.lookup(Inode.ROOT, "f")).isEmpty();
        assertThat(first.lookup(Inode.ROOT, "g")).hasValueSatisfying(d -> assertThat(d.ino()).isEqualTo(file.ino()));
    }

    @Test
    void aLookupThatMissedJustBeforeThisClientCreatedTheNameDoesNotHideIt() throws Exception {
        try (HeldCall held = new HeldCall("lookup")) {
            CompletableFuture<Optional<Dentry>> racing = held.start(cached -> cached.lookup(Inode.ROOT, "d"));
            held.awaitEngineAnswered();
            Inode made = held.cached.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
            held.release();

            assertThat(racing.get(5, TimeUnit.SECONDS)).isEmpty(); // it read before the create
            assertThat(held.cached.lookup(Inode.ROOT, "d")).hasValueSatisfying(d -> assertThat(d.ino()).isEqualTo(made.ino()));
        }
    }

    @Test
    void aNameAnotherThreadHasJustMadeIsFoundOnceTheEngineRefusesToMakeItAgain() throws Exception {
        try (HeldCall held = new HeldCall("create")) {
            assertThat(held.cached.lookup(Inode.ROOT, "d")).isEmpty(); // cached as absent
            CompletableFuture<Inode> making = held.start(
                    cached -> cached.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1)));
            held.awaitEngineAnswered(); // made in the engine; the maker has not come back to the cache

            assertThatThrownBy(() -> held.cached.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1)))
                    .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.error()).isEqualTo(FsError.EEXIST));
            assertThat(held.cached.lookup(Inode.ROOT, "d")).isPresent();
            held.release();
            assertThat(making.get(5, TimeUnit.SECONDS).isDirectory()).isTrue();
        }
    }

    @Test
    void anInodeReadJustBeforeThisClientChangedItDoesNotHideTheChange() throws Exception {
        Inode file = first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        try (HeldCall held = new HeldCall("getInode")) {
            CompletableFuture<Inode> racing = held.start(cached -> cached.getInode(file.ino()));
            held.awaitEngineAnswered();
            held.cached.setAttr(file.ino(), SetAttr.mode(0600, 2));
            held.release();

            assertThat(racing.get(5, TimeUnit.SECONDS).mode()).isEqualTo(0644);
            assertThat(held.cached.getInode(file.ino()).mode()).isEqualTo(0600);
        }
    }

    @Test
    void aListingReadJustBeforeThisClientCreatedANameDoesNotHideIt() throws Exception {
        try (HeldCall held = new HeldCall("readdirPlus")) {
            CompletableFuture<List<DirectoryEntry>> racing = held.start(cached -> cached.readdirPlus(Inode.ROOT, null, 100));
            held.awaitEngineAnswered();
            held.cached.create(Inode.ROOT, "late", NewInode.file(0644, 0, 0, 1));
            held.release();

            assertThat(racing.get(5, TimeUnit.SECONDS)).isEmpty(); // it read before the create
            assertThat(names(held.cached, Inode.ROOT)).containsExactly("late");
        }
    }

    @Test
    void aDirectoryReadAgainWhileASubdirectoryWasMadeInItCountsTheNewLinkOnce() throws Exception {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        try (HeldCall held = new HeldCall("create")) {
            assertThat(held.cached.getInode(dir.ino()).nlink()).isEqualTo(2);
            CompletableFuture<Inode> making = held.start(
                    cached -> cached.create(dir.ino(), "sub", NewInode.directory(0755, 0, 0, 2)));
            held.awaitEngineAnswered(); // made in the engine; the maker has not come back to the cache
            held.cached.readdirPlus(Inode.ROOT, null, 100); // refreshes the directory's cached inode, link counted
            held.release();
            making.get(5, TimeUnit.SECONDS);

            assertThat(held.cached.getInode(dir.ino())).isEqualTo(shared.getInode(dir.ino()));
            assertThat(held.cached.getInode(dir.ino()).nlink()).isEqualTo(3);
        }
    }

    /**
     * A client over the shared engine whose first call of one method is held between the
     * engine's answer and its return, so another call can be made in that window. The engine is real;
     * only the interleaving, which the threads would otherwise hit by chance, is arranged.
     */
    private final class HeldCall implements AutoCloseable {
        private final CountDownLatch answered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicBoolean holding = new AtomicBoolean(true);
        private final ExecutorService reader = Executors.newSingleThreadExecutor();
        final CachedMetaStore cached;

        HeldCall(String method) {
            MetaStore holdingEngine = (MetaStore) Proxy.newProxyInstance(MetaStore.class.getClassLoader(),
                    new Class<?>[] {MetaStore.class}, (proxy, called, args) -> {
                        Object result;
                        try {
                            result = called.invoke(shared, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                        if (called.getName().equals(method) && holding.compareAndSet(true, false)) {
                            answered.countDown();
                            released.await();
                        }
                        return result;
                    });
            cached = new CachedMetaStore(holdingEngine, 1000, EXPIRE, NEGATIVE, nanos::get);
        }

        <T> CompletableFuture<T> start(ThrowingFunction<CachedMetaStore, T> read) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return read.apply(cached);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, reader);
        }

        void awaitEngineAnswered() throws InterruptedException {
            assertThat(answered.await(5, TimeUnit.SECONDS)).as("the engine answered the held read").isTrue();
        }

        void release() {
            released.countDown();
        }

        @Override
        public void close() {
            released.countDown();
            reader.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface ThrowingFunction<A, R> {
        R apply(A argument) throws IOException;
    }

    @Test
    void anotherClientsChangeShowsAfterTheEntryExpires() throws IOException {
        Inode file = first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        assertThat(second.getInode(file.ino()).mode()).isEqualTo(0644);

        first.setAttr(file.ino(), SetAttr.mode(0600, 2));
        assertThat(second.getInode(file.ino()).mode()).isEqualTo(0644); // still trusted

        advance(EXPIRE.plusMillis(1));
        assertThat(second.getInode(file.ino()).mode()).isEqualTo(0600);
    }

    @Test
    void aCreateLeavesItsDirectoryCachedWithTheNewTimesAndLink() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        first.getInode(dir.ino());
        long misses = first.cacheStats().missCount();

        first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 5));
        first.create(dir.ino(), "sub", NewInode.directory(0755, 0, 0, 7));

        assertDirectoryCachedAs(dir.ino(), misses, 7, 3);
    }

    @Test
    void removalsAndLinksLeaveTheirDirectoryCachedWithTheNewTimesAndLink() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        Inode file = first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 2));
        first.create(dir.ino(), "g", NewInode.file(0644, 0, 0, 3));
        first.create(dir.ino(), "sub", NewInode.directory(0755, 0, 0, 4));
        first.getInode(dir.ino());
        long misses = first.cacheStats().missCount();

        first.link(file.ino(), dir.ino(), "f2", 5);
        assertThat(first.getInode(dir.ino()).mtimeNs()).isEqualTo(5);
        first.unlink(dir.ino(), "g", 6);
        assertThat(first.getInode(dir.ino()).ctimeNs()).isEqualTo(6);
        first.rmdir(dir.ino(), "sub", 7);

        assertDirectoryCachedAs(dir.ino(), misses, 7, 2);
        assertThat(first.lookup(dir.ino(), "g")).isEmpty();
        assertThat(first.lookup(dir.ino(), "sub")).isEmpty();
    }

    /**
     * Directory {@code dir}'s inode, read through {@code first} with no miss since {@code misses}:
     * the engine's, with mtime and ctime {@code timeNs} and {@code nlink} links.
     */
    private void assertDirectoryCachedAs(long dir, long misses, long timeNs, int nlink) throws IOException {
        Inode cached = first.getInode(dir);
        assertThat(first.cacheStats().missCount()).isEqualTo(misses);
        assertThat(cached).isEqualTo(shared.getInode(dir));
        assertThat(cached.mtimeNs()).isEqualTo(timeNs);
        assertThat(cached.ctimeNs()).isEqualTo(timeNs);
        assertThat(cached.nlink()).isEqualTo(nlink);
    }

    @Test
    void anUnlinkTheEngineRefusesForgetsTheNameAndItsDirectory() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 2));
        assertThat(first.lookup(dir.ino(), "f")).isPresent();
        first.getInode(dir.ino());
        second.unlink(dir.ino(), "f", 3); // another client's removal, not seen yet

        assertThatThrownBy(() -> first.unlink(dir.ino(), "f", 4))
                .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.error()).isEqualTo(FsError.ENOENT));

        assertThat(first.lookup(dir.ino(), "f")).isEmpty();
        assertThat(first.getInode(dir.ino())).isEqualTo(shared.getInode(dir.ino()));
    }

    @Test
    void aDirectoryReadAgainWhileASubdirectoryWasRemovedFromItKeepsWhatThatReadSaw() throws Exception {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        first.create(dir.ino(), "sub", NewInode.directory(0755, 0, 0, 2));
        try (HeldCall held = new HeldCall("rmdir")) {
            assertThat(held.cached.getInode(dir.ino()).nlink()).isEqualTo(3);
            CompletableFuture<Inode> removing = held.start(cached -> cached.rmdir(dir.ino(), "sub", 3));
            held.awaitEngineAnswered(); // removed in the engine; the remover has not come back to the cache
            second.setAttr(dir.ino(), SetAttr.mode(0700, 4)); // another client's change
            held.cached.readdirPlus(Inode.ROOT, null, 100); // refreshes the directory's cached inode
            held.release();
            removing.get(5, TimeUnit.SECONDS);

            Inode cached = held.cached.getInode(dir.ino());
            assertThat(cached).isEqualTo(shared.getInode(dir.ino()));
            assertThat(cached.mode()).isEqualTo(0700);
            assertThat(cached.nlink()).isEqualTo(2);
        }
    }

    @Test
    void aDirectoryACreateBroughtAlongKeepsTheExpiryItHadLeft() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        assertThat(first.getInode(dir.ino()).mode()).isEqualTo(0755);
        advance(EXPIRE.dividedBy(2));
        second.setAttr(dir.ino(), SetAttr.mode(0700, 2)); // another client's change, not seen yet

        first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 3));
        assertThat(first.getInode(dir.ino()).mode()).isEqualTo(0755);

        advance(EXPIRE.dividedBy(2).plusMillis(1));
        assertThat(first.getInode(dir.ino()).mode()).isEqualTo(0700);
    }

    @Test
    void negativeLookupsExpireSoonerThanPositiveOnes() throws IOException {
        assertThat(second.lookup(Inode.ROOT, "late")).isEmpty();
        first.create(Inode.ROOT, "late", NewInode.file(0644, 0, 0, 1));
        assertThat(second.lookup(Inode.ROOT, "late")).isEmpty();

        advance(NEGATIVE.plusMillis(1));
        assertThat(second.lookup(Inode.ROOT, "late")).isPresent();
    }

    @Test
    void anotherClientsDeletionShowsAfterTheEntryExpires() throws IOException {
        first.create(Inode.ROOT, "gone", NewInode.file(0644, 0, 0, 1));
        assertThat(second.lookup(Inode.ROOT, "gone")).isPresent();

        first.unlink(Inode.ROOT, "gone", 2);
        advance(EXPIRE.plusMillis(1));

        assertThat(second.lookup(Inode.ROOT, "gone")).isEmpty();
    }

    @Test
    void aWholeDirectoryListedAnswersLookupsOfItsNames() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        createFiles(Inode.ROOT, 5);
        cached.readdir(Inode.ROOT, null, 100);

        for (int i = 0; i < 5; i++) {
            assertThat(cached.lookup(Inode.ROOT, "f" + i)).isPresent();
        }
        assertThat(engine.calls("lookup")).isZero();
    }

    @Test
    void aNameLookedUpInADirectoryListedWithItsInodesNeedsNoEngineCallForTheInode() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        createFiles(Inode.ROOT, 5);
        cached.readdirPlus(Inode.ROOT, null, 100);

        for (int i = 0; i < 5; i++) {
            Dentry found = cached.lookup(Inode.ROOT, "f" + i).orElseThrow();
            assertThat(cached.getInode(found.ino()).isFile()).isTrue();
        }
        assertThat(engine.calls("lookup")).isZero();
        assertThat(engine.calls("getInode")).isZero();
    }

    @Test
    void theSubdirectoriesOfADirectoryListedWithItsInodesAreOpenedWithoutAnEngineCall() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        Inode sub = first.create(Inode.ROOT, "sub", NewInode.directory(0755, 0, 0, 1));
        createFiles(Inode.ROOT, 3);
        cached.readdirPlus(Inode.ROOT, null, 100);

        assertThat(cached.getInode(sub.ino()).isDirectory()).isTrue();
        assertThat(engine.calls("getInode")).isZero();
    }

    @Test
    void aListingReadFromTheEngineRefreshesAnInodeCachedOnItsOwn() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        Inode file = first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 1));
        second.getInode(file.ino());
        first.setAttr(file.ino(), SetAttr.mode(0600, 2)); // another client's change, within the expiry

        assertThat(second.readdirPlus(dir.ino(), null, 100)).singleElement()
                .satisfies(entry -> assertThat(entry.inode().mode()).isEqualTo(0600));
        assertThat(second.getInode(file.ino()).mode()).isEqualTo(0600);
    }

    @Test
    void afterAnOwnChangeAListedDirectorysInodesAreReadAgainNotServedFromTheListing() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        Inode dir = cached.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        Inode file = cached.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 1));
        cached.readdirPlus(dir.ino(), null, 100);
        cached.lookup(dir.ino(), "f");

        cached.setAttr(file.ino(), SetAttr.mode(0600, 2));

        assertThat(cached.getInode(cached.lookup(dir.ino(), "f").orElseThrow().ino()).mode()).isEqualTo(0600);
        assertThat(cached.readdirPlus(dir.ino(), null, 100)).singleElement()
                .satisfies(entry -> assertThat(entry.inode().mode()).isEqualTo(0600));
    }

    @Test
    void aPageOfALargerDirectoryWarmsTheLookupsOfItsNames() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        createFiles(Inode.ROOT, 5);
        cached.readdirPlus(Inode.ROOT, null, 3);

        for (int i = 0; i < 3; i++) {
            assertThat(cached.lookup(Inode.ROOT, "f" + i)).isPresent();
        }
        assertThat(engine.calls("lookup")).isZero();
    }

    @Test
    void aNameMissingFromAListedDirectoryIsStillLookedUp() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        first.create(dir.ino(), "a", NewInode.file(0644, 0, 0, 1));
        assertThat(names(second, dir)).containsExactly("a");

        first.create(dir.ino(), "late", NewInode.file(0644, 0, 0, 1)); // another client's

        assertThat(second.lookup(dir.ino(), "late")).isPresent();
    }

    @Test
    void aWholeDirectoryListedAgainWithinTheExpiryIsServedFromTheHeap() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        createFiles(dir.ino(), 5);
        List<DirectoryEntry> listed = cached.readdirPlus(dir.ino(), null, 100);

        assertThat(cached.readdirPlus(dir.ino(), null, 100)).isEqualTo(listed);
        assertThat(cached.readdir(dir.ino(), "f1", 2)).extracting(Dentry::name).containsExactly("f2", "f3");
        assertThat(engine.listings()).isEqualTo(1);
    }

    @Test
    void ownChangesToANameShowInTheNextListingAtOnce() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        Inode other = first.create(Inode.ROOT, "e", NewInode.directory(0755, 0, 0, 1));
        first.create(dir.ino(), "a", NewInode.file(0644, 0, 0, 1));
        first.create(dir.ino(), "b", NewInode.file(0644, 0, 0, 1));
        first.readdirPlus(dir.ino(), null, 100);
        first.readdirPlus(other.ino(), null, 100);

        first.create(dir.ino(), "c", NewInode.file(0644, 0, 0, 1));
        assertThat(names(first, dir)).containsExactly("a", "b", "c");
        first.unlink(dir.ino(), "a", 2);
        assertThat(names(first, dir)).containsExactly("b", "c");
        first.rename(dir.ino(), "b", other.ino(), "moved", 3);
        assertThat(names(first, dir)).containsExactly("c");
        assertThat(names(first, other)).containsExactly("moved");
    }

    @Test
    void anOwnChangeToAListedFileShowsInTheNextListingAtOnce() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        Inode file = first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 1));
        first.readdirPlus(dir.ino(), null, 100);

        first.setAttr(file.ino(), SetAttr.mode(0600, 2));

        assertThat(first.readdirPlus(dir.ino(), null, 100)).singleElement()
                .satisfies(entry -> assertThat(entry.inode().mode()).isEqualTo(0600));
    }

    @Test
    void anotherClientsNewNameShowsInAListingOnceItExpires() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        first.create(dir.ino(), "a", NewInode.file(0644, 0, 0, 1));
        assertThat(names(second, dir)).containsExactly("a");

        first.create(dir.ino(), "b", NewInode.file(0644, 0, 0, 1));
        assertThat(names(second, dir)).containsExactly("a"); // still trusted

        advance(EXPIRE.plusMillis(1));
        assertThat(names(second, dir)).containsExactly("a", "b");
    }

    @Test
    void aListingWhoseInodesWereEvictedIsReadAgain() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        Inode file = first.create(dir.ino(), "f", NewInode.file(0644, 0, 0, 1));
        cached.readdirPlus(dir.ino(), null, 100);

        first.setAttr(file.ino(), SetAttr.mode(0600, 2)); // another client's change
        advance(EXPIRE.plusMillis(1));

        assertThat(cached.readdirPlus(dir.ino(), null, 100)).singleElement()
                .satisfies(entry -> assertThat(entry.inode().mode()).isEqualTo(0600));
        assertThat(engine.listings()).isEqualTo(2);
    }

    @Test
    void aPartOfALargeDirectoryIsNotKeptAsItsListing() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        createFiles(dir.ino(), 3);

        cached.readdir(dir.ino(), null, 2); // a first page, not the whole directory
        cached.readdir(dir.ino(), null, 2);

        assertThat(engine.listings()).isEqualTo(2);
    }

    /** A client over {@code engine}, with the tests' expiries and clock. */
    private CachedMetaStore over(CountingStore engine) {
        return new CachedMetaStore(engine.proxy(), 1000, EXPIRE, NEGATIVE, nanos::get);
    }

    /** Files f0 .. f(count - 1) in {@code dir}, made by the first client. */
    private void createFiles(long dir, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            first.create(dir, "f" + i, NewInode.file(0644, 0, 0, 1));
        }
    }

    private static List<String> names(MetaStore store, Inode dir) throws IOException {
        return names(store, dir.ino());
    }

    private static List<String> names(MetaStore store, long dir) throws IOException {
        return store.readdirPlus(dir, null, 100).stream().map(entry -> entry.dentry().name()).toList();
    }

    /** An engine that counts the calls it was asked, and says whether it reads a page with its inodes at once. */
    private static final class CountingStore {
        private final MetaStore engine;
        private final boolean readdirPlusIsOneRead;
        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        CountingStore(MetaStore engine, boolean readdirPlusIsOneRead) {
            this.engine = engine;
            this.readdirPlusIsOneRead = readdirPlusIsOneRead;
        }

        int calls(String method) {
            AtomicInteger count = calls.get(method);
            return count == null ? 0 : count.get();
        }

        int listings() {
            return calls("readdir") + calls("readdirPlus");
        }

        MetaStore proxy() {
            return (MetaStore) Proxy.newProxyInstance(MetaStore.class.getClassLoader(), new Class<?>[] {MetaStore.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("readdirPlusIsOneRead")) {
                            return readdirPlusIsOneRead;
                        }
                        calls.computeIfAbsent(method.getName(), name -> new AtomicInteger()).incrementAndGet();
                        try {
                            return method.invoke(engine, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    @Test
    void aSecondMissInADirectoryReadsItSoTheNamesThatFollowAreServedFromTheHeap() throws IOException {
        CountingStore engine = new CountingStore(shared, true);
        CachedMetaStore cached = over(engine);
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        createFiles(dir.ino(), 10);

        assertThat(cached.lookup(dir.ino(), "f0")).isPresent();
        assertThat(cached.lookup(dir.ino(), "f1")).isPresent();
        for (int i = 2; i < 10; i++) {
            Optional<Dentry> found = cached.lookup(dir.ino(), "f" + i);
            assertThat(found).isPresent();
            assertThat(cached.getInode(found.get().ino()).isFile()).isTrue();
        }
        assertThat(engine.calls("lookup")).isEqualTo(1);
        assertThat(engine.listings()).isEqualTo(1);
        assertThat(engine.calls("getInode")).isZero();
    }

    @Test
    void aNameMissingFromAWholeDirectoryThatWasReadIsAbsentUntilTheNegativeExpiry() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        first.create(dir.ino(), "a", NewInode.file(0644, 0, 0, 1));
        assertThat(second.lookup(dir.ino(), "a")).isPresent();
        assertThat(second.lookup(dir.ino(), "late")).isEmpty(); // the second miss: the directory is read

        first.create(dir.ino(), "late", NewInode.file(0644, 0, 0, 1));
        assertThat(second.lookup(dir.ino(), "late")).isEmpty();

        advance(NEGATIVE.plusMillis(1));
        assertThat(second.lookup(dir.ino(), "late")).isPresent();
    }

    @Test
    void namesPastTheFirstPageOfALargeDirectoryAreFoundOneByOne() throws IOException {
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        int files = CachedMetaStore.LOOKAHEAD_ENTRIES + 10;
        for (int i = 0; i < files; i++) {
            first.create(dir.ino(), String.format("f%05d", i), NewInode.file(0644, 0, 0, 1));
        }
        first.invalidateAll();

        assertThat(first.lookup(dir.ino(), "f00000")).isPresent();
        assertThat(first.lookup(dir.ino(), String.format("f%05d", files - 1))).isPresent();
        assertThat(first.lookup(dir.ino(), String.format("f%05d", files - 2))).isPresent();
        assertThat(first.lookup(dir.ino(), "missing")).isEmpty();
    }

    @Test
    void lookingUpInAFileFailsAsTheEngineDoesEvenWhenADirectoryReadIsDue() throws IOException {
        Inode file = first.create(Inode.ROOT, "f", NewInode.file(0644, 0, 0, 1));
        first.invalidateAll();

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> first.lookup(file.ino(), "x"))
                    .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.error()).isEqualTo(FsError.ENOTDIR));
        }
    }

    @Test
    void overAnEngineThatReadsEachEntryApartNoDirectoryIsReadAhead() throws IOException {
        CountingStore perEntry = new CountingStore(shared, false);
        CachedMetaStore cached = over(perEntry);
        Inode dir = first.create(Inode.ROOT, "d", NewInode.directory(0755, 0, 0, 1));
        createFiles(dir.ino(), 3);

        for (int i = 0; i < 3; i++) {
            assertThat(cached.lookup(dir.ino(), "f" + i)).isPresent();
        }
        assertThat(perEntry.listings()).isZero();
    }

    @Test
    void sizeBoundHolds() throws IOException {
        CachedMetaStore small = new CachedMetaStore(shared, 10, EXPIRE, NEGATIVE, nanos::get);
        for (int i = 0; i < 100; i++) {
            small.create(Inode.ROOT, "f" + i, NewInode.file(0644, 0, 0, 1));
        }
        small.cleanUp();
        assertThat(small.size()).isLessThanOrEqualTo(10);
    }
}
