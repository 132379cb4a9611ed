package io.strata.it;

import io.strata.core.ufs.s3.S3TestServer;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The page store over the S3 under storage (S3Proxy in this JVM, or STRATA_TEST_S3_ENDPOINT). */
class S3PageCacheTest extends AbstractPageCacheTest {
    private final S3TestServer server = S3TestServer.shared();
    private final Map<MountedVolume, URI> buckets = new IdentityHashMap<>();

    @Override
    MountedVolume newVolume(Path dir, String... options) throws IOException {
        URI prefix = server.newVolume("page-cache");
        List<String> all = new ArrayList<>(List.of(options));
        all.add("s3.staging_dir=" + dir.resolve("staging"));
        MountedVolume volume = MountedVolume.overS3(dir, prefix, server.optionText(), all.toArray(String[]::new));
        buckets.put(volume, prefix);
        return volume;
    }

    @Override
    void putObject(MountedVolume volume, String name, byte[] data) {
        server.put(buckets.get(volume), name, data);
    }

    @Override
    void deleteObject(MountedVolume volume, String name) {
        server.delete(buckets.get(volume), name);
    }

    /**
     * By default an open trusts the recorded version (no HEAD); the first read's conditional GET
     * finds the object replaced, and the file takes the new version before serving anything.
     */
    @Test
    void anObjectReplacedBehindTheMountBeforeItsFirstReadIsReadAnew() throws IOException {
        MountedVolume volume = mount();
        putObject(volume, "f.bin", Bytes.random(21, 2 * MIB));
        assertEquals(2 * MIB, Files.size(volume.path("f.bin"))); // listed: the version is recorded
        putObject(volume, "f.bin", Bytes.random(22, 3 * MIB));
        assertArrayEquals(Bytes.random(22, 3 * MIB), Files.readAllBytes(volume.path("f.bin")));
        assertEquals(3 * MIB, Files.size(volume.path("f.bin")), "the new size is recorded");
    }

    // ---- dir_readahead: a directory's small files read in name order are fetched ahead ----------

    private static final int SMALL_FILES = 20;

    private static String smallFile(int i) {
        return "scan/f" + String.format("%02d", i);
    }

    private static byte[] smallContent(int i) {
        return Bytes.random(100 + i, 20_000 + i);
    }

    private void putSmallFiles(MountedVolume volume) {
        for (int i = 0; i < SMALL_FILES; i++) {
            putObject(volume, smallFile(i), smallContent(i));
        }
    }

    private static void readSmallFile(MountedVolume volume, int i) throws IOException {
        assertArrayEquals(smallContent(i), Files.readAllBytes(volume.path(smallFile(i))), smallFile(i));
    }

    /** Files fetched ahead so far; counted once each fetch is in the cache. */
    private static double fetchedAhead(MountedVolume volume) {
        return volume.meters().find("strata.readahead.files").counter().count();
    }

    private static void awaitFetchedAhead(MountedVolume volume, int files) {
        Poll.until("files fetched ahead", files, FILL_TIMEOUT, () -> (int) fetchedAhead(volume));
    }

    // A probe of the cache through the mount (user.strata.cached) would not do here: Java reads an
    // extended attribute through a descriptor it opens, and those opens are a reader's to the
    // readahead. The meters say what was fetched instead.

    @Test
    void smallFilesOpenedInTheirDirectorysOrderAreFetchedAheadOfTheReader() throws IOException {
        MountedVolume volume = mount();
        putSmallFiles(volume);
        readSmallFile(volume, 0);
        readSmallFile(volume, 1); // the second in a row: the next 8 are fetched

        awaitFetchedAhead(volume, 8);
        awaitFills(volume);
        double fetches = counter(volume, "strata.cache.fetches", "ufs");
        readSmallFile(volume, 2);
        readSmallFile(volume, 3);
        readSmallFile(volume, 4);
        assertEquals(fetches, counter(volume, "strata.cache.fetches", "ufs"), "read from the cache");
        assertEquals(8, fetchedAhead(volume), "no further than the window");
    }

    @Test
    void theWindowMovesWithTheReaderToTheDirectorysEnd() throws IOException {
        MountedVolume volume = mount();
        putSmallFiles(volume);
        for (int i = 0; i < SMALL_FILES; i++) {
            readSmallFile(volume, i);
        }
        awaitFetchedAhead(volume, SMALL_FILES - 2); // every file after the first two, once
        awaitFills(volume);
        assertEquals(SMALL_FILES - 2, fetchedAhead(volume));
    }

    @Test
    void filesOpenedOutOfOrderAreNotFetchedAhead() throws IOException {
        MountedVolume volume = mount();
        putSmallFiles(volume);
        for (int i : new int[] {5, 2, 9, 0, 3}) {
            readSmallFile(volume, i);
        }
        // Then in order, as a marker: what an earlier open queued is fetched before this window is.
        readSmallFile(volume, 10);
        readSmallFile(volume, 11);
        awaitFetchedAhead(volume, 8);
        awaitFills(volume);
        assertEquals(8, fetchedAhead(volume), "only the window after the files read in order");
    }

    @Test
    void aFileLargerThanAPageIsLeftToItsOwnReadahead() throws IOException {
        MountedVolume volume = mount();
        putSmallFiles(volume);
        putObject(volume, smallFile(2), Bytes.random(7, 2 * MIB));
        readSmallFile(volume, 0);
        readSmallFile(volume, 1);
        awaitFetchedAhead(volume, 7);
        awaitFills(volume);
        assertEquals(7, fetchedAhead(volume), "the window but the large file");
    }

    @Test
    void dirReadaheadZeroFetchesNothingAhead() throws IOException {
        MountedVolume volume = mount("dir_readahead=0");
        putSmallFiles(volume);
        for (int i = 0; i < 4; i++) {
            readSmallFile(volume, i);
        }
        awaitFills(volume);
        assertEquals(0, fetchedAhead(volume));
    }
}
