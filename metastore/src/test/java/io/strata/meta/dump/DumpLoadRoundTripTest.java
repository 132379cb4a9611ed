package io.strata.meta.dump;

import io.strata.meta.MetaStore;
import io.strata.meta.NamespaceChecks;
import io.strata.meta.TestServers;
import io.strata.meta.dump.MetadataDump.DumpOptions;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * For every pair of engines A and B and both encodings: dump A, load into B, dump B: the two dumps
 * are the same bytes, and B keeps every namespace invariant. And across encodings: a load of A's
 * binary dump dumps as A's JSON dump, and a load of A's JSON dump as A's binary dump.
 *
 * <p>The tree ({@link TestTrees#build}) covers hard links (including a name that comes before the
 * primary link in dump order, names in several directories, and a primary link moved by unlink),
 * symlinks with odd targets, FIFOs, sockets and devices, xattrs (empty, all 256 byte values, odd
 * names), names with control characters, quotes, backslashes, non-BMP characters and 255 bytes,
 * a chain of {@value TestTrees#DEEP} directories, a directory of {@value TestTrees#WIDE} entries
 * (read in many pages), directories merged from an under-storage listing (never synced, with
 * UFS versions), settings, and an open-but-unlinked file as client sessions keep one: libfuse's
 * {@code .fuse_hidden} name plus a hard link under {@code /.strata/sessions/<id>} that holds the
 * primary link. Sessions live in the namespace, so such inodes are ordinary entries to a dump;
 * no engine keeps sustained inodes of its own, so the format's "sustained" list is empty in
 * every dump here.
 */
@ExtendWith(TestServers.class)
class DumpLoadRoundTripTest {
    /** Small pages, so the wide directory and the prefetching across pages are exercised. */
    static final DumpOptions SMALL_PAGES = new DumpOptions(false, 64, 4);

    @TempDir
    Path dir;
    private TestVolumes volumes;

    @BeforeEach
    void openVolumes() {
        volumes = new TestVolumes(dir);
    }

    @AfterEach
    void closeVolumes() throws IOException {
        volumes.close();
    }

    static Stream<Arguments> pairs() {
        return TestVolumes.ENGINES.stream()
                .flatMap(from -> TestVolumes.ENGINES.stream().map(to -> Arguments.of(from, to)));
    }

    static Stream<Arguments> pairsAndEncodings() {
        return pairs().flatMap(pair -> Stream.of(DumpEncoding.values())
                .map(encoding -> Arguments.of(pair.get()[0], pair.get()[1], encoding)));
    }

    @ParameterizedTest(name = "{0} to {1}, {2}")
    @MethodSource("pairsAndEncodings")
    void dumpLoadDumpIsByteIdentical(String from, String to, DumpEncoding encoding) throws IOException {
        MetaStore source = volumes.fresh(from);
        TestTrees.build(source);
        NamespaceChecks.check(source);
        byte[] first = dump(source, encoding, SMALL_PAGES);

        MetaStore target = volumes.fresh(to);
        MetadataDump.load(target, new ByteArrayInputStream(first), LoadOptions.defaults(), Progress.none());
        NamespaceChecks.check(target);
        assertEquals(source.stats(), target.stats());
        byte[] second = dump(target, encoding, DumpOptions.defaults());

        assertEquals(text(encoding, first), text(encoding, second));
    }

    @ParameterizedTest(name = "{0} to {1}")
    @MethodSource("pairs")
    void eachEncodingLoadsAndDumpsAsTheOther(String from, String to) throws IOException {
        MetaStore source = volumes.fresh(from);
        TestTrees.build(source);
        byte[] json = dump(source, DumpEncoding.JSON, SMALL_PAGES);
        byte[] binary = dump(source, DumpEncoding.BINARY, SMALL_PAGES);
        assertTrue(binary.length < json.length / 2, binary.length + " bytes binary, " + json.length + " JSON");

        MetaStore fromBinary = volumes.fresh(to);
        MetadataDump.load(fromBinary, new ByteArrayInputStream(binary), LoadOptions.defaults(), Progress.none());
        assertEquals(text(DumpEncoding.JSON, json), text(DumpEncoding.JSON, dump(fromBinary, DumpEncoding.JSON,
                DumpOptions.defaults())));

        MetaStore fromJson = volumes.fresh(to);
        MetadataDump.load(fromJson, new ByteArrayInputStream(json), LoadOptions.defaults(), Progress.none());
        assertEquals(text(DumpEncoding.BINARY, binary), text(DumpEncoding.BINARY, dump(fromJson, DumpEncoding.BINARY,
                DumpOptions.defaults())));
    }

    static byte[] dump(MetaStore store, DumpOptions options) throws IOException {
        return dump(store, DumpEncoding.JSON, options);
    }

    static byte[] dump(MetaStore store, DumpEncoding encoding, DumpOptions options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MetadataDump.dump(store, out, encoding, options, Progress.none());
        return out.toByteArray();
    }

    /** The dump as text to compare: JSON as it is, a binary dump byte for byte (ISO-8859-1 maps each byte to a char). */
    static String text(DumpEncoding encoding, byte[] dump) {
        return new String(dump, encoding == DumpEncoding.JSON ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    }
}
