package io.strata.core.ufs.s3;

import io.strata.core.conf.Options;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.DirectoryListing;
import io.strata.core.ufs.UfsFile;
import io.strata.core.ufs.UfsStatus;
import io.strata.core.ufs.UnderFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only the S3 under storage does: the key layout, markers, write modes, open handles, errors. */
class S3UnderFileSystemSemanticsTest {
    /** The smallest part S3 (and S3Proxy) accept, so that a few MiB exercise multipart uploads and copies. */
    private static final long PART = S3Options.MIN_PART_SIZE;

    @TempDir
    Path staging;

    private final S3TestServer server = S3TestServer.shared();
    private URI volume;
    private S3UnderFileSystem ufs;

    @BeforeEach
    void open(TestInfo test) throws IOException {
        volume = server.newVolume(test.getTestMethod().orElseThrow().getName());
        ufs = open(server.options());
    }

    @AfterEach
    void close() {
        ufs.close();
    }

    private S3UnderFileSystem open(Options options) {
        return new S3UnderFileSystem(S3Location.parse(volume), S3Clients.create(options),
                new S3UnderFileSystem.Settings(PART, 2, staging, 3 * PART, PART));
    }

    @Test
    void objectsAreFilesWithTheirSizeMtimeAndEtag() throws Exception {
        byte[] data = bytes("hello, objects");
        server.put(volume, "a.txt", data);

        UfsStatus status = listed("").get("a.txt");

        assertFalse(status.directory());
        assertEquals(data.length, status.size());
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data)), status.version());
        assertTrue(Math.abs(status.mtimeNs() / 1_000_000 - System.currentTimeMillis()) < 3_600_000, "mtime");
        assertEquals(status, ufs.status("a.txt").orElseThrow());
    }

    @Test
    void prefixesAreDirectoriesAndMarkersAreNotEntries() throws IOException {
        server.put(volume, "d/", new byte[0]);
        server.put(volume, "d/x", bytes("x"));
        server.put(volume, "implicit/y", bytes("y"));

        assertEquals(List.of("d/", "implicit/"), names(""));
        assertEquals(List.of("x"), names("d"));
        assertEquals(List.of("y"), names("implicit"));
        assertTrue(ufs.status("implicit").orElseThrow().directory());
        assertTrue(ufs.status("d").orElseThrow().directory());
    }

    @Test
    void anEmptyDirectoryIsItsMarker() throws IOException {
        ufs.mkdir("empty");
        assertTrue(server.keys(volume).contains("empty/"));
        assertEquals(List.of(), names("empty"));
        ufs.deleteDirectory("empty");
        assertEquals(List.of(), server.keys(volume));
    }

    @Test
    void aDirectoryHidesAnObjectOfTheSameName() throws IOException {
        server.put(volume, "x", bytes("shadowed"));
        server.put(volume, "x-1", bytes("1"));
        server.put(volume, "x.txt", bytes("2"));
        server.put(volume, "x/inner", bytes("3"));

        assertEquals(List.of("x-1", "x.txt", "x/"), names(""));
        assertTrue(ufs.status("x").orElseThrow().directory());
    }

    @Test
    void namesAFileSystemCannotHoldAreSkipped() throws IOException {
        server.put(volume, "a//b", bytes("1"));
        server.put(volume, "./c", bytes("2"));
        server.put(volume, "../d", bytes("3"));
        server.put(volume, "ok", bytes("4"));

        assertEquals(List.of("a/", "ok"), names(""));
        assertEquals(List.of(), names("a"));
    }

    @Test
    void listingGoesPastOnePageOfKeys() throws IOException {
        server.putEmpty(volume, "many/", 2500);

        List<String> names = names("many");

        assertEquals(2500, names.size());
        assertEquals("k00000", names.get(0));
        assertEquals("k02499", names.get(2499));
    }

    @Test
    void siblingDirectoriesComeWholeFromOneRecursivePageAsTheirListingsWouldGiveThem() throws IOException {
        server.put(volume, "t/a/1", bytes("1"));
        server.put(volume, "t/a/2", bytes("22"));
        server.put(volume, "t/a/sub/deep/x", bytes("x"));
        server.put(volume, "t/a/x", bytes("shadowed by the directory x/")); // as in a delimited listing
        server.put(volume, "t/a/x/inner", bytes("i"));
        server.put(volume, "t/a.b/k", bytes("k")); // sorts before t/a/, after the page's start
        server.put(volume, "t/b/", new byte[0]); // a marker: b holds nothing else
        server.put(volume, "t/c/./bad", bytes("b")); // a name no entry can have
        server.put(volume, "t/c/z", bytes("z"));
        server.put(volume, "t/file", bytes("f")); // the parent's own file: no directory's
        server.put(volume, "t/0/before", bytes("0")); // before the page's start

        List<DirectoryListing> listings = ufs.listSiblings("t", "a");

        assertEquals(List.of("a.b", "a", "b", "c"), listings.stream().map(l -> l.name()).toList());
        for (DirectoryListing listing : listings) {
            Map<String, UfsStatus> byName = new TreeMap<>();
            listing.entries().forEach(e -> assertEquals(null, byName.put(e.name(), e), "twice: " + e.name()));
            Map<String, UfsStatus> listed = listed("t/" + listing.name());
            assertEquals(listed.keySet(), byName.keySet(), listing.name());
            for (String name : listed.keySet()) {
                UfsStatus a = listed.get(name);
                UfsStatus b = byName.get(name);
                assertEquals(a.directory(), b.directory(), name);
                if (!a.directory()) {
                    assertEquals(a, b, name); // directories report the time they were listed
                }
            }
        }
        assertEquals(List.of("1", "2", "sub/", "x/"), names("t/a"));
    }

    @Test
    void theLastDirectoryOfACutPageIsLeftOutAndAFirstNotWholeGivesNothing() throws IOException {
        server.putEmpty(volume, "cut/a/", 600);
        server.putEmpty(volume, "cut/b/", 600);

        assertEquals(List.of("a"), ufs.listSiblings("cut", "a").stream().map(l -> l.name()).toList());
        assertEquals(600, ufs.listSiblings("cut", "a").get(0).entries().size());
        assertEquals(List.of("b"), ufs.listSiblings("cut", "b").stream().map(l -> l.name()).toList());

        server.putEmpty(volume, "big/a/", 1200);
        assertEquals(List.of(), ufs.listSiblings("big", "a"));
    }

    @Test
    void listingAFileOrNothingFails() throws IOException {
        server.put(volume, "f", bytes("x"));
        assertFsError(FsError.ENOTDIR, () -> ufs.list("f", s -> {}));
        assertFsError(FsError.ENOENT, () -> ufs.list("nothing", s -> {}));
        assertFsError(FsError.EISDIR, () -> ufs.open("", false));
    }

    @Test
    void removingTheLastEntryOfADirectoryKeepsTheDirectory() throws IOException {
        server.put(volume, "p/q/f", bytes("x")); // p and p/q exist only through this key
        ufs.deleteFile("p/q/f");

        assertTrue(ufs.status("p/q").orElseThrow().directory());
        ufs.mkdir("p/q/r");
        assertEquals(List.of("r/"), names("p/q"));

        server.put(volume, "s/g", bytes("y"));
        ufs.rename("s/g", "moved");
        assertTrue(ufs.status("s").orElseThrow().directory());
    }

    @Test
    void aDirectoryWithoutMarkerButWithKeysIsNotEmpty() throws IOException {
        server.put(volume, "i/f", bytes("x"));
        assertFsError(FsError.ENOTEMPTY, () -> ufs.deleteDirectory("i"));
        assertFsError(FsError.EEXIST, () -> ufs.mkdir("i/f"));
        assertFsError(FsError.ENOTDIR, () -> ufs.mkdir("i/f/g"));
    }

    @Test
    void sequentialWritesStreamAsAMultipartUploadThatAppearsAtClose() throws IOException {
        byte[] data = randomBytes((int) (3.5 * PART), 1);
        String version;
        try (UfsFile file = ufs.create("streamed")) {
            for (int offset = 0; offset < data.length; offset += 128 * 1024) {
                file.write(ByteBuffer.wrap(data, offset, Math.min(128 * 1024, data.length - offset)), offset);
            }
            assertEquals(Optional.empty(), server.get(volume, "streamed"), "visible before flush");
            assertEquals(0, stagedFiles(), "a sequential writer needs no staging file");
            version = file.version();
        }
        assertArrayEquals(data, server.get(volume, "streamed").orElseThrow());
        assertTrue(version.endsWith("-4"), "a 4-part ETag: " + version);
        assertEquals(version, ufs.status("streamed").orElseThrow().version());
        assertEquals(0, stagedFiles());
    }

    @Test
    void aNewFileExtendedBeforeItIsWrittenStillStreams() throws IOException {
        byte[] data = randomBytes((int) (2.5 * PART), 11);
        try (UfsFile file = ufs.create("fallocated")) {
            file.truncate(data.length); // fio and databases make the full size first (fallocate)
            assertEquals(data.length, file.size());
            for (int offset = 0; offset < data.length; offset += 128 * 1024) {
                file.write(ByteBuffer.wrap(data, offset, Math.min(128 * 1024, data.length - offset)), offset);
            }
            assertEquals(data.length, file.size());
            assertEquals(0, stagedFiles(), "the extension is a length, not a staged copy");
        }
        assertArrayEquals(data, server.get(volume, "fallocated").orElseThrow());
        assertEquals(0, stagedFiles());
    }

    @Test
    void anEmptyObjectOpenedAgainAndWrittenStreamsWithoutAStagedCopy() throws IOException {
        byte[] data = randomBytes((int) (2.5 * PART), 13);
        server.put(volume, "empty", new byte[0]); // as fio leaves a file it created and closed
        try (UfsFile file = ufs.open("empty", true)) {
            file.truncate(data.length); // and then sizes (fallocate) before writing
            for (int offset = 0; offset < data.length; offset += 128 * 1024) {
                file.write(ByteBuffer.wrap(data, offset, Math.min(128 * 1024, data.length - offset)), offset);
            }
            assertEquals(0, stagedFiles(), "nothing to fetch, so nothing staged");
        }
        assertArrayEquals(data, server.get(volume, "empty").orElseThrow());
    }

    @Test
    void theZeroTailLeftUnwrittenIsUploadedAsZeros() throws IOException {
        byte[] head = randomBytes((int) (1.5 * PART), 12);
        long size = 3 * PART + 17;
        try (UfsFile file = ufs.create("tail")) {
            file.truncate(size);
            file.write(ByteBuffer.wrap(head), 0);
        }
        byte[] expected = java.util.Arrays.copyOf(head, (int) size);
        assertArrayEquals(expected, server.get(volume, "tail").orElseThrow());
    }

    @Test
    void theZeroTailReadsAsZerosAndSurvivesAStagedSwitch() throws IOException {
        try (UfsFile file = ufs.create("holey")) {
            file.write(ByteBuffer.wrap(bytes("abc")), 0);
            file.truncate(10);
            ByteBuffer back = ByteBuffer.allocate(10);
            while (back.hasRemaining() && file.read(back, back.position()) > 0) {
                // still in memory: read back from there, the tail as zeros
            }
            assertArrayEquals(new byte[] {'a', 'b', 'c', 0, 0, 0, 0, 0, 0, 0}, back.array());
            file.write(ByteBuffer.wrap(bytes("z")), 8); // in the tail: the small hole before it becomes zeros in memory
            file.write(ByteBuffer.wrap(bytes("A")), 0);
            assertEquals(10, file.size());
        }
        assertArrayEquals(new byte[] {'A', 'b', 'c', 0, 0, 0, 0, 0, 'z', 0}, server.get(volume, "holey").orElseThrow());
    }

    @Test
    void cuttingIntoTheZeroTailShortensIt() throws IOException {
        try (UfsFile file = ufs.create("cut")) {
            file.write(ByteBuffer.wrap(bytes("abc")), 0);
            file.truncate(1000);
            file.truncate(5);
            assertEquals(5, file.size());
            file.truncate(2);
            assertEquals(2, file.size());
        }
        assertArrayEquals(bytes("ab"), server.get(volume, "cut").orElseThrow());
    }

    @Test
    void aSmallNewFileIsOnePut() throws IOException {
        try (UfsFile file = ufs.create("small")) {
            file.write(ByteBuffer.wrap(bytes("tiny")), 0);
            assertEquals(4, file.size());
            ByteBuffer back = ByteBuffer.allocate(10);
            assertEquals(4, file.read(back, 0)); // still in memory: read back from there
            assertEquals(1, file.read(ByteBuffer.allocate(1), 3));
        }
        assertArrayEquals(bytes("tiny"), server.get(volume, "small").orElseThrow());
        assertFalse(ufs.status("small").orElseThrow().version().contains("-"));
    }

    @Test
    void readingBackAfterPartsLeftFinishesTheUploadAndStagesTheFile() throws IOException {
        byte[] data = randomBytes((int) (2.5 * PART), 2);
        byte[] more = randomBytes(1000, 3);
        try (UfsFile file = ufs.create("f")) {
            file.write(ByteBuffer.wrap(data), 0);
            ByteBuffer head = ByteBuffer.allocate(100);
            assertEquals(100, file.read(head, 0));
            assertArrayEquals(java.util.Arrays.copyOf(data, 100), head.array());
            assertEquals(1, stagedFiles());
            file.write(ByteBuffer.wrap(more), data.length);
        }
        byte[] expected = java.util.Arrays.copyOf(data, data.length + more.length);
        System.arraycopy(more, 0, expected, data.length, more.length);
        assertArrayEquals(expected, server.get(volume, "f").orElseThrow());
        assertEquals(0, stagedFiles());
    }

    @Test
    void aWriteBeforeThePartInMemorySwitchesToAStagedFile() throws IOException {
        byte[] data = randomBytes((int) (2.5 * PART), 4);
        try (UfsFile file = ufs.create("f")) {
            file.write(ByteBuffer.wrap(data), 0);
            file.write(ByteBuffer.wrap(bytes("HEADER")), 0); // e.g. a format that fills in its header last
            System.arraycopy(bytes("HEADER"), 0, data, 0, 6);
        }
        assertArrayEquals(data, server.get(volume, "f").orElseThrow());
    }

    @Test
    void changingAnExistingObjectStagesItOnceAndUploadsAtForce() throws IOException {
        byte[] data = randomBytes((int) (3.3 * PART), 5);
        server.put(volume, "obj", data);
        String before = ufs.status("obj").orElseThrow().version();
        try (UfsFile file = ufs.open("obj", true)) {
            assertEquals(before, file.version());
            file.write(ByteBuffer.wrap(bytes("patch")), 1000);
            file.write(ByteBuffer.wrap(bytes("again")), 50_000);
            System.arraycopy(bytes("patch"), 0, data, 1000, 5);
            System.arraycopy(bytes("again"), 0, data, 50_000, 5);
            assertEquals(1, stagedFiles());
            assertNotEquals(before, file.version());
            assertArrayEquals(data, server.get(volume, "obj").orElseThrow(), "uploaded by version()");
            file.truncate(100_000);
        }
        assertArrayEquals(java.util.Arrays.copyOf(data, 100_000), server.get(volume, "obj").orElseThrow());
        assertEquals(0, stagedFiles());
    }

    @Test
    void truncatingAnExistingObjectToZeroStreamsTheNewContent() throws IOException {
        server.put(volume, "obj", randomBytes(300_000, 6));
        try (UfsFile file = ufs.open("obj", true)) {
            file.truncate(0);
            file.write(ByteBuffer.wrap(bytes("new")), 0);
            assertEquals(0, stagedFiles(), "nothing fetched");
        }
        assertArrayEquals(bytes("new"), server.get(volume, "obj").orElseThrow());
    }

    @Test
    void readsComeFromTheVersionOpenedNeverANewerOne() throws IOException {
        server.put(volume, "v", bytes("first version"));
        try (UfsFile file = ufs.open("v", false)) {
            server.put(volume, "v", bytes("SECOND VERSION"));
            IOException e = assertThrows(IOException.class, () -> file.read(ByteBuffer.allocate(5), 0));
            assertTrue(e.getMessage().contains("read 'v'"), e.getMessage());
        }
    }

    @Test
    void aRenameOrDeleteOfAnOpenFileTakesItsHandleAlong() throws IOException {
        try (UfsFile file = ufs.create("a")) {
            file.write(ByteBuffer.wrap(bytes("12345")), 0);
            ufs.rename("a", "b");
            assertArrayEquals(bytes("12345"), server.get(volume, "b").orElseThrow(), "pending writes go first");
            file.write(ByteBuffer.wrap(bytes("678")), 5);
        }
        assertEquals(Optional.empty(), server.get(volume, "a"));
        assertArrayEquals(bytes("12345678"), server.get(volume, "b").orElseThrow());

        try (UfsFile file = ufs.create("c")) {
            file.write(ByteBuffer.wrap(bytes("gone")), 0);
            ufs.deleteFile("c");
        }
        assertEquals(Optional.empty(), server.get(volume, "c"), "a deleted file is not written back");
    }

    @Test
    void handlesOnOneObjectShareItsData() throws IOException {
        server.put(volume, "shared", bytes("before"));
        try (UfsFile reader = ufs.open("shared", false)) {
            try (UfsFile writer = ufs.open("shared", true)) {
                writer.write(ByteBuffer.wrap(bytes("AFTER!")), 0);
                assertEquals("AFTER!", readString(reader, 6), "a reader sees another handle's write");
                assertThrows(FsException.class, () -> reader.write(ByteBuffer.wrap(bytes("x")), 0));
            }
            assertArrayEquals(bytes("AFTER!"), server.get(volume, "shared").orElseThrow(),
                    "the writer's close uploads");
            assertEquals("AFTER!", readString(reader, 6), "and the reader goes on reading");
        }
        assertEquals(0, stagedFiles(), "the last close releases the staged copy");
    }

    @Test
    void largeObjectsAreCopiedPartByPart() throws IOException {
        byte[] data = randomBytes((int) (4.5 * PART), 7); // above the 3-part copy threshold set above
        server.put(volume, "d/big", data);
        server.put(volume, "d/small", bytes("s"));

        ufs.rename("d", "e");

        assertArrayEquals(data, server.get(volume, "e/big").orElseThrow());
        assertArrayEquals(bytes("s"), server.get(volume, "e/small").orElseThrow());
        assertEquals(List.of("e/big", "e/small"), server.keys(volume));
    }

    @Test
    void renamingADirectoryOntoANonEmptyOneFails() throws IOException {
        server.put(volume, "a/f", bytes("1"));
        server.put(volume, "b/g", bytes("2"));
        assertFsError(FsError.ENOTEMPTY, () -> ufs.rename("a", "b"));
        assertFsError(FsError.EINVAL, () -> ufs.rename("a", "a/sub"));
    }

    @Test
    void capacityIsUnbounded() {
        assertEquals(Optional.empty(), ufs.capacity());
    }

    @Test
    void refusedCredentialsFailWithEaccesAndNeverShowTheSecret() {
        assertTrue(server.isLocalProxy() || true);
        Map<String, String> text = new TreeMap<>(server.optionText());
        text.put("s3a.accessKeyId", "AKIAWRONGWRONG");
        text.put("s3a.secretKey", "wrong-secret-never-shown");
        Options options = optionsOf(text);
        FsException e = assertThrows(FsException.class, () -> S3UnderFileSystem.open(volume, options));
        assertEquals(FsError.EACCES, e.error(), e.getMessage());
        assertFalse(e.getMessage().contains("wrong-secret-never-shown"), e.getMessage());
        assertFalse(options.describe().contains("wrong-secret-never-shown"), options.describe());
    }

    @Test
    void aMissingBucketFailsWithEnoentNamingIt() {
        URI missing = URI.create("s3://strata-no-such-bucket-" + System.nanoTime() % 100000);
        FsException e = assertThrows(FsException.class, () -> S3UnderFileSystem.open(missing, server.options()));
        assertEquals(FsError.ENOENT, e.error(), e.getMessage());
        assertTrue(e.getMessage().contains("strata-no-such-bucket"), e.getMessage());
    }

    // ---- helpers ----

    private static String readString(UfsFile file, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining() && file.read(buffer, buffer.position()) > 0) {
            // keep reading
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    private int stagedFiles() throws IOException {
        try (Stream<Path> files = Files.list(staging)) {
            return (int) files.count();
        }
    }

    private Map<String, UfsStatus> listed(String dir) throws IOException {
        Map<String, UfsStatus> entries = new TreeMap<>();
        ufs.list(dir, status -> assertEquals(null, entries.put(status.name(), status), "twice: " + status.name()));
        return entries;
    }

    /** Entry names in listing order, directories with a trailing '/'. */
    private List<String> names(String dir) throws IOException {
        List<String> names = new ArrayList<>();
        ufs.list(dir, status -> names.add(status.name() + (status.directory() ? "/" : "")));
        names.sort(null);
        return names;
    }

    static Options optionsOf(Map<String, String> text) {
        io.strata.core.conf.OptionsLoader loader =
                new io.strata.core.conf.OptionsLoader(io.strata.core.conf.OptionRegistry.load());
        text.forEach((k, v) -> loader.set(k, v, "test"));
        return loader.build();
    }

    private static void assertFsError(FsError expected, org.junit.jupiter.api.function.Executable executable) {
        FsException e = assertThrows(FsException.class, executable);
        assertEquals(expected, e.error(), e.getMessage());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] randomBytes(int length, long seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }
}
