package io.strata.core.ufs.s3;

import io.strata.core.ufs.s3.FaultProxy.Fault;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deletes and mkdirs in directories whose marker object this client knows of: S3Proxy over HTTP,
 * with {@link FaultProxy} in between counting the listings and HEADs the server sees. A delete
 * that could leave its directory without keys looks (one LIST), and a mkdir checks its parent
 * (HEAD and LIST), unless the directory's marker is known; a marker removed or moved with its
 * directory is never trusted again.
 */
class S3DirectoryMarkersTest {
    @TempDir
    Path staging;

    private final S3TestServer server = S3TestServer.shared();
    private final AtomicInteger listings = new AtomicInteger();
    private final AtomicInteger heads = new AtomicInteger();
    private ProxiedVolume proxied;
    private URI volume;
    private S3UnderFileSystem ufs;

    @BeforeEach
    void start(TestInfo test) throws IOException {
        proxied = ProxiedVolume.start(server, test, staging);
        volume = proxied.uri();
        proxied.proxy().policy((method, target, n) -> {
            if (method.equals("GET") && target.contains("list-type")) {
                listings.incrementAndGet();
            }
            if (method.equals("HEAD")) {
                heads.incrementAndGet();
            }
            return Fault.PASS;
        });
        ufs = proxied.open(proxied.options());
        // A client's first listing may be sent twice (the CRT cannot read S3Proxy's, Netty takes
        // over: CrtReadsClient); the tests count the ones after it.
        ufs.status("warm-up");
    }

    @AfterEach
    void stop() throws IOException {
        ufs.close();
        proxied.close();
    }

    @Test
    void deletesInADirectoryThisClientMadeListNothing() throws IOException {
        ufs.mkdir("d");
        putFiles("d", 3);

        int before = listings.get();
        deleteFiles("d", 3);

        assertEquals(before, listings.get());
        assertTrue(ufs.status("d").orElseThrow().directory(), "the marker keeps the emptied directory");
    }

    @Test
    void aMkdirInADirectoryThisClientMadeAsksOnlyWhetherItsOwnNameIsTaken() throws IOException {
        ufs.mkdir("m");
        int listingsBefore = listings.get();
        int headsBefore = heads.get();

        ufs.mkdir("m/n");

        assertEquals(listingsBefore, listings.get());
        assertEquals(headsBefore + 1, heads.get(), "the HEAD of m/n, none of m");
        assertTrue(ufs.status("m/n").orElseThrow().directory());
    }

    @Test
    void aMarkerSeenByTheFirstDeleteSparesTheOthersTheirListing() throws IOException {
        server.put(volume, "e/", new byte[0]); // made by another client
        putFiles("e", 3);

        int before = listings.get();
        deleteFiles("e", 3);

        assertEquals(before + 1, listings.get());
        assertTrue(ufs.status("e").orElseThrow().directory());
    }

    @Test
    void aMarkerAListingShowedSparesTheDeletesTheirListings() throws IOException {
        server.put(volume, "l/", new byte[0]); // made by another client
        putFiles("l", 2);
        server.put(volume, "s/t/", new byte[0]);
        putFiles("s/t", 2);
        ufs.list("l", entry -> { });
        ufs.listSiblings("s", "t"); // a walk's recursive page: t's keys, its marker first

        int before = listings.get();
        deleteFiles("l", 2);
        deleteFiles("s/t", 2);

        assertEquals(before, listings.get());
        assertTrue(ufs.status("l").orElseThrow().directory());
        assertTrue(ufs.status("s/t").orElseThrow().directory());
    }

    @Test
    void aDirectoryWithoutMarkerIsLookedAtByEveryDeleteAndKeptByTheLast() throws IOException {
        putFiles("f", 2); // f exists only through its keys

        int before = listings.get();
        deleteFiles("f", 2);

        assertEquals(before + 2, listings.get());
        assertTrue(ufs.status("f").orElseThrow().directory(), "the last delete wrote the marker");
    }

    @Test
    void aMarkerRemovedWithItsDirectoryIsNotTrustedForTheNextOneOfThatName() throws IOException {
        ufs.mkdir("g");
        ufs.deleteDirectory("g");
        putFiles("g", 2); // g again, by another client, without a marker

        deleteFiles("g", 2);

        assertTrue(ufs.status("g").orElseThrow().directory(), "looked, found it empty, wrote its marker");
    }

    @Test
    void aMarkerMovedWithItsDirectoryIsNotTrustedWhereItWas() throws IOException {
        ufs.mkdir("h");
        ufs.mkdir("h/sub");
        putFiles("h/sub", 1);
        ufs.rename("h", "moved");
        putFiles("h/sub", 2); // the old names again, by another client, without markers

        deleteFiles("h/sub", 2);

        assertTrue(ufs.status("h/sub").orElseThrow().directory());
        assertTrue(ufs.status("moved/sub").orElseThrow().directory());
    }

    /** {@code count} one-byte objects {@code dir/k0, dir/k1, ...}, written straight to the server. */
    private void putFiles(String dir, int count) {
        for (int i = 0; i < count; i++) {
            server.put(volume, dir + "/k" + i, "x".getBytes(StandardCharsets.UTF_8));
        }
    }

    private void deleteFiles(String dir, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            ufs.deleteFile(dir + "/k" + i);
        }
    }
}
