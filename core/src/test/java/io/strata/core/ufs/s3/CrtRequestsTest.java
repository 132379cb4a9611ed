package io.strata.core.ufs.s3;

import io.strata.core.conf.DataSize;
import io.strata.core.readahead.FetchedRange;
import io.strata.core.readahead.ReadaheadOptions;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;


import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.strata.core.ufs.s3.S3UnderFileSystemSemanticsTest.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stats, listings, deletes and upload parts sent through the CRT client ({@link CrtObjectClient},
 * past the SDK) give what the SDK gives: S3's answers read into the same types, keys decoded byte
 * for byte, objects stored whole.
 * Straight to the S3 server, no proxy: faults and the move to Netty are {@link S3FaultTest}'s.
 */
class CrtRequestsTest {
    @TempDir
    Path staging;

    private final S3TestServer server = S3TestServer.shared();
    private CrtVolume crt;
    private URI volume;
    private CrtReadsClient s3;
    private S3UnderFileSystem ufs;

    @BeforeEach
    void open(TestInfo test) {
        crt = CrtVolume.open(server, test.getTestMethod().orElseThrow().getName(), staging);
        volume = crt.uri();
        s3 = crt.client();
        ufs = crt.ufs();
    }

    @AfterEach
    void close() throws IOException {
        if (crt != null) {
            crt.close();
        }
    }

    @Test
    void aListingNamesEveryKeyAsItIsStored() throws IOException {
        List<String> names = List.of("plain", "with space", "plus+sign", "percent%41", "amp&lt", "ünïcødé", "tab\tkey");
        for (String name : names) {
            server.put(volume, "d/" + name, new byte[] {1});
        }
        server.put(volume, "d/sub/inner", new byte[] {2});
        long before = s3.crtOthers();

        List<String> listed = new ArrayList<>();
        ufs.list("d", status -> listed.add(status.name() + (status.directory() ? "/" : "")));

        List<String> expected = new ArrayList<>(names);
        expected.add("sub/");
        expected.sort(null);
        listed.sort(null);
        assertEquals(expected, listed);
        assertTrue(s3.crtOthers() > before, "the listing went through the CRT client");
    }

    @Test
    void aListingLongerThanAPageIsReadPageByPage() throws IOException {
        int count = 1_001; // the under storage asks for pages of 1,000
        S3Location location = S3Location.parse(volume);
        // Seeded 50 PUTs at a time: a thousand at once through the SDK's Netty client once failed
        // in CI with its own "Duplicate handler name: HttpStreamsClientHandler-body-subscriber".
        for (int from = 0; from < count; from += 50) {
            List<CompletableFuture<?>> puts = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 50); i++) {
                String key = location.key(String.format("many/f%05d", i));
                puts.add(server.client().putObject(b -> b.bucket(location.bucket()).key(key), AsyncRequestBody.empty()));
            }
            CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0])).join();
        }

        List<String> listed = new ArrayList<>();
        ufs.list("many", status -> listed.add(status.name()));

        assertEquals(count, listed.size());
        assertEquals("f00000", listed.get(0));
        assertEquals(String.format("f%05d", count - 1), listed.get(count - 1));
    }

    /**
     * What lets a ranged GET keep its body's memory instead of copying it ({@link ChunkKeeping}):
     * a body of 1 MiB or less (a {@code DEFAULT} meta request) comes in an array made for it alone,
     * which nothing writes afterwards. A CRT upgrade that reused its arrays would fail here, before
     * any read could return bad data.
     */
    @Test
    void eachPageSizedBodyArrivesInAnArrayOfItsOwnThatNothingWritesLater() throws Exception {
        byte[] first = randomBytes(1 << 20, 1);
        byte[] second = randomBytes(1 << 20, 2);
        server.put(volume, "a", first);
        server.put(volume, "b", second);
        long before = s3.crtGets();

        Kept a = keptBody("a", first.length);
        Kept b = keptBody("b", second.length);

        assertEquals(before + 2, s3.crtGets(), "both went through the CRT client");
        assertTrue(a.giveBack() == null && b.giveBack() == null, "not lent");
        assertTrue(a.body().hasArray() && b.body().hasArray() && a.body().array() != b.body().array(),
                "each body has an array of its own");
        assertArrayEquals(second, bytes(b.body()));
        assertArrayEquals(first, bytes(a.body()), "the first body is as it arrived after the second GET");
    }

    /**
     * A body of exactly one part (every whole readahead part) lands in the client's buffer pool and
     * is lent as it is: direct memory, with the lease that gives it back.
     */
    @Test
    void aBodyOfAWholePartIsLentFromTheClientsPool() throws Exception {
        byte[] data = randomBytes(CrtObjectClient.PART_SIZE, 4);
        server.put(volume, "part", data);

        Kept kept = keptBody("part", data.length);

        assertTrue(kept.giveBack() != null, "lent");
        try {
            assertTrue(kept.body().isDirect(), "the pool's memory");
            assertArrayEquals(data, bytes(kept.body()));
        } finally {
            kept.giveBack().run();
        }
    }

    /** A body that is not a whole part is never lent (it would hold a whole slot): the subscriber copies it. */
    @Test
    void aBodyShorterThanAPartIsCopiedNotLent() throws Exception {
        byte[] data = randomBytes(3 << 20, 5);
        server.put(volume, "short", data);
        String key = S3Location.parse(volume).key("short");
        String etag = S3Objects.etag(ufs.objects().head(key, "test").orElseThrow().eTag());

        FetchedRange range = ufs.objects().readRangeAsync(key, etag, 0, data.length, 1 << 20, "test")
                .get(30, TimeUnit.SECONDS);

        assertFalse(range.lent());
        ByteBuffer read = ByteBuffer.allocate(data.length);
        assertEquals(data.length, range.copyTo(0, data.length, read));
        assertArrayEquals(data, read.array());
    }

    /**
     * The pool is sized so that the readahead's budget, kept whole in lent parts, leaves room for
     * GETs in flight: with every part the budget can hold kept (here 2 of 16 MiB), two GETs more
     * still complete. A pool of the budget alone would hold them until a part is released, which
     * a reader waiting for those very GETs never does.
     */
    @Test
    void partsKeptUpToTheBudgetLeaveThePoolRoomForMoreGets(TestInfo test) throws Exception {
        crt.close();
        crt = CrtVolume.open(server, test.getTestMethod().orElseThrow().getName() + "-small", staging,
                server.options().with(ReadaheadOptions.BUFFER_SIZE, DataSize.ofMiB(16)));
        volume = crt.uri();
        ufs = crt.ufs();
        int parts = 4;
        byte[] data = randomBytes(parts * CrtObjectClient.PART_SIZE, 6);
        server.put(volume, "parts", data);
        String key = S3Location.parse(volume).key("parts");
        String etag = S3Objects.etag(ufs.objects().head(key, "test").orElseThrow().eTag());

        List<FetchedRange> kept = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                kept.add(ufs.objects().readRangeAsync(key, etag, (long) i * CrtObjectClient.PART_SIZE,
                        CrtObjectClient.PART_SIZE, 1 << 20, "test").get(30, TimeUnit.SECONDS));
            }
            List<CompletableFuture<FetchedRange>> more = new ArrayList<>();
            for (int i = 2; i < parts; i++) {
                more.add(ufs.objects().readRangeAsync(key, etag, (long) i * CrtObjectClient.PART_SIZE,
                        CrtObjectClient.PART_SIZE, 1 << 20, "test"));
            }
            for (CompletableFuture<FetchedRange> get : more) {
                kept.add(get.get(30, TimeUnit.SECONDS));
            }
            for (int i = 0; i < parts; i++) {
                FetchedRange range = kept.get(i);
                assertTrue(range.lent(), "part " + i + " lent");
                ByteBuffer read = ByteBuffer.allocate(CrtObjectClient.PART_SIZE);
                long at = (long) i * CrtObjectClient.PART_SIZE;
                range.copyTo(at, at + CrtObjectClient.PART_SIZE, read);
                assertArrayEquals(Arrays.copyOfRange(data, (int) at, (int) at + CrtObjectClient.PART_SIZE), read.array(),
                        "part " + i);
            }
        } finally {
            kept.forEach(FetchedRange::release);
        }
    }

    /**
     * The pool's first block is there once the client is built, so no GET waits for it on the event
     * loop (where zeroing it stalled the first read of a stream by ~100 ms), and goes with the client.
     */
    @Test
    void thePoolsFirstBlockIsAllocatedWithTheClientAndFreedWithIt(TestInfo test) throws Exception {
        long floor = S3Options.crtBufferPoolFloorBytes(server.options());
        assertEquals(128L << 20, floor, "the default buffer_size's pool keeps a block of 16 parts");
        long before = directMemoryUsed();
        CrtVolume another = CrtVolume.open(server, test.getTestMethod().orElseThrow().getName() + "-2", staging);
        long built = directMemoryUsed();
        assertTrue(built - before >= floor, "direct memory grew by " + (built - before) + " bytes with the client");
        another.close();
        long closed = directMemoryUsed();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // the CRT shuts its client down in the background
        while (built - closed < floor && System.nanoTime() < deadline) {
            Thread.sleep(20);
            closed = directMemoryUsed();
        }
        assertTrue(built - closed >= floor, "direct memory fell by " + (built - closed) + " bytes at close");
    }

    private static long directMemoryUsed() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow().getMemoryUsed();
    }

    /**
     * A range longer than the CRT's part size comes as several parts ({@code GET_OBJECT} meta
     * requests split it), each copied into the readahead's blocks in order: the whole range, byte
     * for byte, at an offset off every grid.
     */
    @Test
    void aRangeLongerThanAPartArrivesWholeAndInOrder() throws Exception {
        byte[] data = randomBytes(2 * CrtObjectClient.PART_SIZE + 300_000, 3);
        server.put(volume, "big", data);
        String key = S3Location.parse(volume).key("big");
        String etag = S3Objects.etag(ufs.objects().head(key, "test").orElseThrow().eTag());
        int offset = 123_457;
        int length = 2 * CrtObjectClient.PART_SIZE + 100_000;
        long before = s3.crtGets();

        FetchedRange range = ufs.objects().readRangeAsync(key, etag, offset, length, 1 << 20, "test")
                .get(60, TimeUnit.SECONDS);

        assertEquals(before + 1, s3.crtGets(), "it went through the CRT client");
        assertEquals(length, range.length());
        ByteBuffer read = ByteBuffer.allocate(length);
        assertEquals(length, range.copyTo(offset, offset + length, read));
        assertArrayEquals(Arrays.copyOfRange(data, offset, offset + length), read.array());
    }

    /** A body kept by a {@link ChunkKeeping} subscriber, and the lease of its memory if it was lent. */
    private record Kept(ByteBuffer body, Runnable giveBack) {}

    /** The whole body of a GET of {@code key}, as kept by a {@link ChunkKeeping} subscriber. */
    private Kept keptBody(String key, int length) throws Exception {
        S3Location location = S3Location.parse(volume);
        List<Kept> kept = new ArrayList<>();
        class Keeper implements AsyncResponseTransformer<GetObjectResponse, Void>, ChunkCopying {
            CompletableFuture<Void> done;

            @Override
            public boolean copiesChunks() {
                return true;
            }

            @Override
            public CompletableFuture<Void> prepare() {
                return done = new CompletableFuture<>();
            }

            @Override
            public void onResponse(GetObjectResponse response) {}

            @Override
            public void onStream(SdkPublisher<ByteBuffer> publisher) {
                publisher.subscribe(new KeepingSubscriber());
            }

            @Override
            public void exceptionOccurred(Throwable error) {
                done.completeExceptionally(error);
            }

            final class KeepingSubscriber implements Subscriber<ByteBuffer>, ChunkKeeping {
                @Override
                public boolean keep(ByteBuffer chunk) {
                    kept.add(new Kept(chunk.duplicate(), null));
                    return true;
                }

                @Override
                public boolean keepLent(ByteBuffer chunk, Runnable giveBack) {
                    kept.add(new Kept(chunk.duplicate(), giveBack));
                    return true;
                }

                @Override
                public void onSubscribe(Subscription subscription) {
                    subscription.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(ByteBuffer chunk) {
                    done.completeExceptionally(new AssertionError("a chunk was sent to be copied"));
                }

                @Override
                public void onError(Throwable error) {
                    done.completeExceptionally(error);
                }

                @Override
                public void onComplete() {
                    done.complete(null);
                }
            }
        }
        s3.getObject(GetObjectRequest.builder().bucket(location.bucket()).key(location.key(key))
                .range("bytes=0-" + (length - 1)).build(), new Keeper()).get(30, TimeUnit.SECONDS);
        assertEquals(1, kept.size(), "the body came in one chunk");
        return kept.get(0);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    @Test
    void aStatGivesTheSizeVersionAndTimeTheSdkGives() throws IOException {
        server.put(volume, "f", randomBytes(12_345, 1));
        S3Location location = S3Location.parse(volume);
        String key = location.key("f");
        HeadObjectResponse sdk = server.client().headObject(b -> b.bucket(location.bucket()).key(key)).join();
        long before = s3.crtOthers();

        UfsStatus status = ufs.status("f").orElseThrow();

        assertEquals(12_345, status.size());
        assertEquals(S3Objects.etag(sdk.eTag()), status.version());
        assertEquals(sdk.lastModified().toEpochMilli() * 1_000_000, status.mtimeNs());
        assertTrue(s3.crtOthers() > before, "the stat went through the CRT client");
    }

    @Test
    void aMissingKeyIsAbsentAndADeletedOneIsGone() throws IOException {
        server.put(volume, "gone", new byte[] {1});
        assertFalse(ufs.status("never").isPresent());

        ufs.deleteFile("gone");

        assertFalse(ufs.status("gone").isPresent());
        assertFalse(server.get(volume, "gone").isPresent());
    }

    @Test
    void aStreamingUploadSendsItsPartsThroughTheCrtFromTheirBuffers() throws IOException {
        byte[] data = randomBytes((int) (2.5 * S3Options.MIN_PART_SIZE), 4);

        try (UfsFile file = ufs.create("streamed")) {
            for (int at = 0; at < data.length; at += 1 << 20) {
                file.write(ByteBuffer.wrap(data, at, Math.min(1 << 20, data.length - at)), at);
            }
        }

        assertArrayEquals(data, server.get(volume, "streamed").orElseThrow());
        assertTrue(s3.crtParts() >= 2, "parts through the CRT client: " + s3.crtParts());
    }

    /**
     * Parts after the first few are filled in arrays that sent parts left behind: what the object
     * gets is still exactly what was written, a hole in a later part (zeros) included, never
     * bytes an earlier part left in its array.
     */
    @Test
    void aLongStreamingUploadWhosePartsReuseTheirArraysSendsExactlyWhatWasWritten() throws IOException {
        int part = (int) S3Options.MIN_PART_SIZE;
        byte[] data = randomBytes(7 * part + 12_345, 6);
        int holeStart = 5 * part + 100_000;
        int holeEnd = holeStart + 3 * (1 << 20);
        java.util.Arrays.fill(data, holeStart, holeEnd, (byte) 0);

        try (UfsFile file = ufs.create("reused")) {
            for (int at = 0; at < data.length; ) {
                int n = Math.min(1 << 20, (at < holeStart ? holeStart : data.length) - at);
                file.write(ByteBuffer.wrap(data, at, n), at);
                at += n;
                if (at == holeStart) {
                    at = holeEnd; // the next write starts past a hole of zeros
                }
            }
        }

        assertArrayEquals(data, server.get(volume, "reused").orElseThrow());
    }

    @Test
    void aStagedFileSendsItsPartsThroughTheCrtReadFromTheFile() throws IOException {
        byte[] data = randomBytes((int) (2.5 * S3Options.MIN_PART_SIZE), 5);
        Path file = Files.write(staging.resolve("staged"), data);

        ufs.uploadFile(S3Location.parse(volume).key("staged"), file, "test");

        assertArrayEquals(data, server.get(volume, "staged").orElseThrow());
        assertEquals(3, s3.crtParts(), "parts through the CRT client");
    }
}
