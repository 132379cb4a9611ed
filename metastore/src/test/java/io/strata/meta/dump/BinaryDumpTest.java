package io.strata.meta.dump;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.TestServers;
import io.strata.meta.VolumeStats;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.MetadataDump.DumpOptions;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.strata.meta.dump.DumpLoadRoundTripTest.dump;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the binary encoding adds to the format: a trailer that refuses a truncated, corrupted or
 * extended file with the offset where the document ends (the target left empty, on every engine),
 * strings that UTF-8 cannot hold, and a document any Smile reader can read.
 */
@ExtendWith(TestServers.class)
class BinaryDumpTest {
    private static final long T = 1_700_000_000_000_000_000L;

    @TempDir
    Path dir;
    private TestVolumes volumes;
    private byte[] dump;

    @BeforeEach
    void makeDump() throws IOException {
        volumes = new TestVolumes(dir);
        try (MetaStore source = MetaStores.open("memory://")) {
            TestTrees.build(source);
            dump = dump(source, DumpEncoding.BINARY, DumpOptions.defaults());
        }
    }

    @AfterEach
    void closeVolumes() throws IOException {
        volumes.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres", "redis"})
    void truncatedDumpIsRefusedWhereItEndsAndLeavesTheTargetEmpty(String engine) throws IOException {
        MetaStore target = volumes.fresh(engine);
        int document = dump.length - DumpTrailer.SIZE;
        // in Smile's header, in the document's header, in the first entries, in the wide directory,
        // the document without its trailer, cut inside the trailer
        for (int length : new int[] {1, 2, 3, 30, 700, dump.length / 2, document - 1, document, document + 8,
                dump.length - 1}) {
            byte[] cut = Arrays.copyOf(dump, length);
            LoadFailedException failure = assertThrows(LoadFailedException.class, () -> load(target, cut),
                    "cut at " + length);
            assertTrue(failure.badDump(), failure::getMessage);
            assertTrue(failure.leftEmpty(), failure::getMessage);
            assertTrue(failure.getMessage().startsWith("malformed dump at byte " + length + ": the dump ends at byte "
                    + length + " before its trailer: truncated"), failure::getMessage);
            assertEmpty(target);
        }
        load(target, dump);
        assertEquals(DumpLoadRoundTripTest.text(DumpEncoding.BINARY, dump),
                DumpLoadRoundTripTest.text(DumpEncoding.BINARY, dump(target, DumpEncoding.BINARY, DumpOptions.defaults())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite"})
    void changedBytesAreRefusedByTheChecksum(String engine) throws IOException {
        // a name changed, "odd" to "ode": still a well-formed dump, only the CRC tells
        byte[] changed = dump.clone();
        int at = indexOf(changed, "odd".getBytes(StandardCharsets.US_ASCII));
        changed[at + 2] = 'e';
        MetaStore target = volumes.fresh(engine);
        LoadFailedException failure = assertThrows(LoadFailedException.class, () -> load(target, changed));
        int document = dump.length - DumpTrailer.SIZE;
        assertTrue(failure.getMessage().startsWith("malformed dump at byte " + document + ": bytes 0 to "
                + (document - 1) + " have CRC32C "), failure::getMessage);
        assertTrue(failure.getMessage().contains("the dump is corrupt"), failure::getMessage);
        assertTrue(failure.leftEmpty(), failure::getMessage);
        assertEmpty(target);
    }

    @Test
    void damagedTrailerIsRefused() throws IOException {
        byte[] damaged = dump.clone();
        damaged[dump.length - DumpTrailer.SIZE + 20] ^= 1; // a count
        LoadFailedException failure = assertThrows(LoadFailedException.class,
                () -> load(volumes.fresh("memory"), damaged));
        assertTrue(failure.getMessage().contains("the trailer at byte " + (dump.length - DumpTrailer.SIZE)
                + " is corrupt (its own CRC32C does not match)"), failure::getMessage);
    }

    @Test
    void countsThatDisagreeWithTheDocumentAreRefused() throws IOException {
        int document = dump.length - DumpTrailer.SIZE;
        DumpTrailer trailer = DumpTrailer.parse(Arrays.copyOfRange(dump, document, dump.length));
        EntryCounts wrong = new EntryCounts();
        for (InodeType type : EntryCounts.ORDER) {
            wrong.set(type, trailer.entries().count(type));
        }
        wrong.set(InodeType.FIFO, wrong.count(InodeType.FIFO) + 1);
        ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
        rewritten.write(dump, 0, document);
        new DumpTrailer(document, wrong, trailer.crc()).writeTo(rewritten);
        LoadFailedException failure = assertThrows(LoadFailedException.class,
                () -> load(volumes.fresh("memory"), rewritten.toByteArray()));
        assertTrue(failure.getMessage().contains("the trailer counts entries "), failure::getMessage);
        assertTrue(failure.getMessage().contains("2 fifo, 1 socket, 1 chardev, 1 blockdev; the dump has "),
                failure::getMessage);
    }

    @Test
    void bytesAddedAfterTheTrailerAreRefused() throws IOException {
        byte[] longer = Arrays.copyOf(dump, dump.length + 5);
        LoadFailedException failure = assertThrows(LoadFailedException.class,
                () -> load(volumes.fresh("memory"), longer));
        assertTrue(failure.getMessage().contains("before its trailer: truncated, or bytes were added after it"),
                failure::getMessage);
    }

    @Test
    void unpairedSurrogatesAndEscapeLikeNamesRoundTrip() throws IOException {
        List<String> names = List.of("\uD800", "lone\uDC00low", "\uDBFF\uDBFF", "nul\u0000", "\u0000", "\u0000d800",
                "\uD83D\uDE00pair");
        try (MetaStore source = MetaStores.open("memory://"); MetaStore target = MetaStores.open("memory://")) {
            for (String name : names) {
                long ino = source.create(Inode.ROOT, name, NewInode.symlink(name + "/" + name, 0, 0, T)).ino();
                source.setXattr(ino, "user." + name, new byte[] {0, (byte) 0xff}, XattrMode.CREATE);
            }
            byte[] first = dump(source, DumpEncoding.BINARY, DumpOptions.defaults());
            load(target, first);
            for (String name : names) {
                long ino = target.lookup(Inode.ROOT, name).orElseThrow().ino();
                assertEquals(name + "/" + name, target.readlink(ino));
                assertArrayEquals(new byte[] {0, (byte) 0xff}, target.getXattr(ino, "user." + name).orElseThrow());
            }
            assertArrayEquals(first, dump(target, DumpEncoding.BINARY, DumpOptions.defaults()));
        }
    }

    @Test
    void onlyStringsUtf8CannotHoldOrThatLookEscapedAreEscaped() {
        assertEquals("plain", BinaryStrings.escape("plain"));
        assertEquals("\uD83D\uDE00", BinaryStrings.escape("\uD83D\uDE00"));
        assertEquals("\u0000d8000078", BinaryStrings.escape("\uD800x"));
        assertEquals("\u00000000", BinaryStrings.escape("\u0000"));
        assertEquals("\uD800x", BinaryStrings.unescape("\u0000d8000078"));
        assertNull(BinaryStrings.unescape("\u0000D8000078"), "uppercase hex is not what escape writes");
        assertNull(BinaryStrings.unescape("\u00000078"), "'x' needs no escape");
        assertNull(BinaryStrings.unescape("\u0000d80"), "not whole units");
    }

    @Test
    void documentIsSmileThatAnySmileReaderReadsToItsEndMarker() throws IOException {
        try (JsonParser smile = new SmileFactory().createParser(dump)) {
            assertEquals(JsonToken.START_OBJECT, smile.nextToken());
            assertEquals("format", smile.nextFieldName());
            assertEquals("strata-dump", smile.nextTextValue());
            smile.skipChildren();
            while (smile.nextToken() != JsonToken.END_OBJECT) {
                smile.skipChildren();
            }
            assertNull(smile.nextToken());
            assertEquals(dump.length - DumpTrailer.SIZE, smile.currentLocation().getByteOffset());
        }
    }

    private static void load(MetaStore target, byte[] dump) throws IOException {
        MetadataDump.load(target, new ByteArrayInputStream(dump), LoadOptions.defaults(), Progress.none());
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError(new String(part, StandardCharsets.US_ASCII) + " is not in the dump");
    }

    private static void assertEmpty(MetaStore target) throws IOException {
        assertEquals(new VolumeStats(1, 0), target.stats());
        assertTrue(target.readdir(Inode.ROOT, null, 10).isEmpty());
        try (LoadTarget load = target.loadTarget()) {
            assertEquals(Optional.empty(), load.nonEmpty());
        }
    }
}
