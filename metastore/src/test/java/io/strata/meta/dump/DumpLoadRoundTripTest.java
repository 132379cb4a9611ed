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

/**
 * For every pair of engines A and B: dump A, load into B, dump B: the two dumps are the same
 * bytes, and B keeps every namespace invariant.
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

    @ParameterizedTest(name = "{0} to {1}")
    @MethodSource("pairs")
    void dumpLoadDumpIsByteIdentical(String from, String to) throws IOException {
        MetaStore source = volumes.fresh(from);
        TestTrees.build(source);
        NamespaceChecks.check(source);
        byte[] first = dump(source, SMALL_PAGES);

        MetaStore target = volumes.fresh(to);
        MetadataDump.load(target, new ByteArrayInputStream(first), LoadOptions.defaults(), Progress.none());
        NamespaceChecks.check(target);
        assertEquals(source.stats(), target.stats());
        byte[] second = dump(target, DumpOptions.defaults());

        assertEquals(new String(first, StandardCharsets.UTF_8), new String(second, StandardCharsets.UTF_8));
    }

    static byte[] dump(MetaStore store, DumpOptions options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MetadataDump.dump(store, out, options, Progress.none());
        return out.toByteArray();
    }
}
