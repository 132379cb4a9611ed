package io.strata.meta.dump;

import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NamespaceChecks;
import io.strata.meta.NewInode;
import io.strata.meta.TestServers;
import io.strata.meta.VolumeStats;
import io.strata.meta.dump.MetadataDump.DumpOptions;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import io.strata.meta.dump.MetadataDump.LoadSummary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.strata.meta.dump.DumpFormatTest.dump;
import static io.strata.meta.dump.DumpFormatTest.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loads that must fail or report: truncated and malformed dumps (with the byte offset and what
 * was expected; the target left empty, on every engine), a volume that is not empty, nlink and
 * counters that disagree with the tree, names an engine cannot store, an engine failing mid-load.
 */
@ExtendWith(TestServers.class)
class LoadTest {
    @TempDir
    Path dir;
    private TestVolumes volumes;
    private String dump;

    @BeforeEach
    void makeDump() throws IOException {
        volumes = new TestVolumes(dir);
        try (MetaStore source = MetaStores.open("memory://")) {
            TestTrees.build(source);
            dump = dump(source, DumpOptions.defaults());
        }
    }

    @AfterEach
    void closeVolumes() throws IOException {
        volumes.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres", "mariadb", "redis"})
    void truncatedDumpFailsWithItsOffsetAndLeavesTheTargetEmpty(String engine) throws IOException {
        MetaStore target = volumes.fresh(engine);
        byte[] bytes = dump.getBytes(StandardCharsets.UTF_8);
        // in the header, inside the first entries, in the wide directory (after batches were written), at the end
        for (int length : new int[] {0, 30, 700, bytes.length / 2, bytes.length - 3, bytes.length - 2}) {
            String cut = new String(bytes, 0, length, StandardCharsets.UTF_8);
            LoadFailedException failure = assertThrows(LoadFailedException.class, () -> load(target, cut),
                    "cut at " + length);
            assertTrue(failure.badDump(), failure::getMessage);
            assertTrue(failure.leftEmpty(), failure::getMessage);
            Matcher offset = Pattern.compile("malformed dump at byte (\\d+): .*truncated").matcher(failure.getMessage());
            assertTrue(offset.find(), failure::getMessage);
            assertTrue(Long.parseLong(offset.group(1)) <= length, failure::getMessage);
            assertTrue(failure.getMessage().endsWith(" was left empty"), failure::getMessage);
            assertEmpty(target);
        }
        load(target, dump); // no --force needed: the volume really is empty
        assertEquals(dump, dump(target, DumpOptions.defaults()));
    }

    /** A dump, what to change in it, and what the failure must say. */
    record Malformed(String what, String find, String replace, String message) {}

    static final List<Malformed> MALFORMED = List.of(
            new Malformed("not JSON", "{\"format\"", "hello {\"format\"", "Unrecognized token 'hello'"),
            new Malformed("another format", "strata-dump", "other-dump", "this is not a Strata dump"),
            new Malformed("a newer version", "\"version\":1", "\"version\":2",
                    "the dump has format version 2, newer than version 1 that this Strata reads"),
            new Malformed("a member missing", "\"secretsRemoved\":[],\n", "", "expected \"secretsRemoved\", found \"counters\""),
            new Malformed("sustained inodes", "\"sustained\":[]", "\"sustained\":[{}]", "loads no sustained"),
            new Malformed("a string for a number", "\"uid\":1000,", "\"uid\":\"1000\",",
                    "expected a whole number for \"uid\", found the string \"1000\" (in directory "
                            + "/.strata/sessions/6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c)"),
            new Malformed("an unknown type", "\"type\":\"fifo\"", "\"type\":\"pipe\"", "unknown \"type\" \"pipe\""),
            new Malformed("a bad mode", "\"mode\":\"0750\"", "\"mode\":\"750\"", "\"mode\" must be 4 octal digits"),
            new Malformed("bad base64", "\"user.root\":\"AQID\"", "\"user.root\":\"A*ID\"", "base64"),
            new Malformed("names out of order", "{\"name\":\"odd\"", "{\"name\":\"aaa\"", "comes after"),
            new Malformed("entries of a file", "\"target\":\"z-primary\"}", "\"target\":\"z-primary\",\"entries\":[]}",
                    "only directories have entries"),
            new Malformed("a directory twice", "{\"name\":\"other\",\"ino\":3,", "{\"name\":\"other\",\"ino\":2,",
                    "appears earlier: a directory has exactly one name"),
            new Malformed("a directory without entries", ",\"entries\":[\n{\"name\":\"obj-00\"", "}",
                    "expected \"entries\""),
            new Malformed("something after the end", "\n}\n", "\n}\n[]", "expected the end of the input"));

    static List<Malformed> malformed() {
        return MALFORMED;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedDumpFailsWithItsOffsetAndWhatWasExpected(Malformed malformed) throws IOException {
        assertTrue(dump.contains(malformed.find()), malformed.find());
        String bad = dump.replaceFirst(Pattern.quote(malformed.find()), Matcher.quoteReplacement(malformed.replace()));
        for (String engine : List.of("memory", "sqlite")) {
            MetaStore target = volumes.fresh(engine);
            LoadFailedException failure = assertThrows(LoadFailedException.class, () -> load(target, bad));
            assertTrue(failure.badDump(), failure::getMessage);
            assertTrue(failure.getMessage().startsWith("malformed dump at byte "), failure::getMessage);
            assertTrue(failure.getMessage().contains(malformed.message()), failure::getMessage);
            long offset = ((MalformedDumpException) failure.getCause()).byteOffset();
            long changed = dump.substring(0, dump.indexOf(malformed.find())).getBytes(StandardCharsets.UTF_8).length;
            assertTrue(offset >= changed - 1 && offset <= changed + malformed.replace().length() + 400,
                    "offset " + offset + " near the change at " + changed + ": " + failure.getMessage());
            assertEmpty(target);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres", "mariadb", "redis"})
    void dumpedNlinkThatDisagreesIsReportedAndLoadedAsCounted(String engine) throws IOException {
        // z-primary has three names; say 5 at its first. The root has 7 subdirectories; say 40.
        String first = "\"name\":\"a-second\",";
        int at = dump.indexOf(first);
        int nlink = dump.indexOf("\"nlink\":3", at);
        String bad = dump.substring(0, nlink) + "\"nlink\":5" + dump.substring(nlink + "\"nlink\":3".length());
        int root = bad.indexOf("\"nlink\":", bad.indexOf("\"tree\":{"));
        bad = bad.substring(0, root) + "\"nlink\":40," + bad.substring(bad.indexOf(',', root) + 1);
        MetaStore target = volumes.fresh(engine);
        List<String> warnings = new ArrayList<>();
        LoadSummary summary = MetadataDump.load(target, in(bad), LoadOptions.defaults(), recording(warnings));

        assertEquals(2, summary.nlinkMismatches(), warnings::toString);
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("/docs/a-second (inode ")
                && w.endsWith("dumped nlink 5, but it has 3 names: nlink 3 loaded")), warnings::toString);
        assertTrue(warnings.stream().anyMatch(w -> w.equals("directory / (inode 1): dumped nlink 40, but it has 7 "
                + "subdirectories: nlink 9 loaded")), warnings::toString);
        NamespaceChecks.check(target);
        assertEquals(dump, dump(target, DumpOptions.defaults()), "loaded as the tree says");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres", "mariadb", "redis"})
    void loadedHardLinksKeepWorking(String engine) throws IOException {
        MetaStore target = volumes.fresh(engine);
        load(target, dump);
        long docs = target.lookup(Inode.ROOT, "docs").orElseThrow().ino();
        long other = target.lookup(Inode.ROOT, "other").orElseThrow().ino();
        long ino = target.lookup(docs, "z-primary").orElseThrow().ino();
        // the primary name goes: the primary moves to the smallest remaining (parent, name)
        var removed = target.unlink(docs, "z-primary", TestTrees.T0 + 100);
        assertTrue(removed.wasPrimary());
        Inode after = target.getInode(ino);
        assertEquals(2, after.nlink());
        assertEquals(docs, after.parent());
        assertEquals("a-second", after.name());
        target.unlink(docs, "a-second", TestTrees.T0 + 101);
        assertEquals(other, target.getInode(ino).parent());
        assertEquals("b-third", target.getInode(ino).name());
        assertEquals(1, target.getInode(ino).nlink());
        target.link(ino, Inode.ROOT, "again", TestTrees.T0 + 102);
        target.unlink(other, "b-third", TestTrees.T0 + 103);
        assertEquals("again", target.getInode(ino).name());
        NamespaceChecks.check(target);
    }

    @Test
    void secondNameOfAnInodeDumpedWithNlinkOneIsCountedToo() throws IOException {
        try (MetaStore source = MetaStores.open("memory://")) {
            long file = source.create(Inode.ROOT, "b", NewInode.file(0644, 0, 0, 1)).ino();
            source.link(file, Inode.ROOT, "c", 2);
            String twoNames = dump(source, DumpOptions.defaults());
            String bad = twoNames.replace("\"type\":\"file\",\"mode\":\"0644\",\"uid\":0,\"gid\":0,\"atime\":1,"
                    + "\"mtime\":1,\"ctime\":2,\"nlink\":2", "\"type\":\"file\",\"mode\":\"0644\",\"uid\":0,\"gid\":0,"
                    + "\"atime\":1,\"mtime\":1,\"ctime\":2,\"nlink\":1");
            assertEquals(2, bad.split("\"nlink\":1,").length - 1, bad);
            for (String engine : List.of("memory", "sqlite", "redis")) {
                MetaStore target = volumes.fresh(engine);
                List<String> warnings = new ArrayList<>();
                MetadataDump.load(target, in(bad), LoadOptions.defaults(), recording(warnings));
                assertEquals(List.of("inode " + file + " (inode " + file + "): dumped nlink 1, but it has 2 names: "
                        + "nlink 2 loaded"), warnings, engine);
                NamespaceChecks.check(target);
                assertEquals(twoNames, dump(target, DumpOptions.defaults()), engine);
            }
        }
    }

    @Test
    void countersThatDisagreeAreReportedAndRecomputed() throws IOException {
        String bad = dump.replaceFirst("\"inodes\":\\d+,", "\"inodes\":7,");
        MetaStore target = volumes.fresh("sqlite");
        List<String> warnings = new ArrayList<>();
        MetadataDump.load(target, in(bad), LoadOptions.defaults(), recording(warnings));
        assertEquals(1, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).startsWith("the dump's counters say 7 inodes"), warnings::toString);
        NamespaceChecks.check(target);
        assertEquals(dump, dump(target, DumpOptions.defaults()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres", "mariadb", "redis"})
    void volumeThatIsNotEmptyIsRefusedUnchangedUnlessForced(String engine) throws IOException {
        MetaStore target = volumes.fresh(engine);
        target.create(Inode.ROOT, "precious", NewInode.file(0644, 0, 0, 1));
        target.putSetting("keep", "me");
        TargetNotEmptyException refused = assertThrows(TargetNotEmptyException.class, () -> load(target, dump));
        assertTrue(refused.getMessage().contains(" is not empty: it has 2 inodes; load into an empty volume, or add"
                + " --force"), refused.getMessage());
        assertTrue(target.lookup(Inode.ROOT, "precious").isPresent());
        assertEquals(new VolumeStats(2, 0), target.stats());

        MetadataDump.load(target, in(dump), LoadOptions.defaults().withForce(true), Progress.none());
        assertFalse(target.lookup(Inode.ROOT, "precious").isPresent());
        assertEquals(Optional.empty(), target.getSetting("keep"), "--force replaces the settings too");
        NamespaceChecks.check(target);
        assertEquals(dump, dump(target, DumpOptions.defaults()));
    }

    @Test
    void nameAnEngineCannotStoreFailsTheLoadAndLeavesItEmpty() throws IOException {
        try (MetaStore source = MetaStores.open("memory://")) {
            source.create(Inode.ROOT, "a", NewInode.file(0644, 0, 0, 1));
            source.create(Inode.ROOT, "lone\uD800", NewInode.file(0644, 0, 0, 1));
            String withSurrogate = dump(source, DumpOptions.defaults());
            for (String engine : List.of("sqlite", "postgres", "mariadb", "redis")) {
                MetaStore target = volumes.fresh(engine);
                LoadFailedException failure = assertThrows(LoadFailedException.class,
                        () -> load(target, withSurrogate), engine);
                assertFalse(failure.badDump());
                assertTrue(failure.getMessage().contains("the name \"lone\\ud800\" cannot be stored in "),
                        failure::getMessage);
                assertTrue(failure.getMessage().contains("not valid Unicode"), failure::getMessage);
                assertTrue(failure.leftEmpty());
                assertEmpty(target);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "postgres", "mariadb", "redis"})
    void engineFailingMidLoadLeavesTheVolumeEmpty(String engine) throws IOException {
        MetaStore real = volumes.fresh(engine);
        AtomicInteger batches = new AtomicInteger();
        MetaStore failing = failingOnThirdBatch(real, batches);
        LoadOptions small = new LoadOptions(false, 100, 4);
        LoadFailedException failure = assertThrows(LoadFailedException.class,
                () -> MetadataDump.load(failing, in(dump), small, Progress.none()));
        assertEquals("the engine broke; " + describe(real) + " was left empty", failure.getMessage());
        assertTrue(batches.get() >= 3);
        assertEmpty(real);
    }

    // --- helpers

    private static void load(MetaStore target, String dump) throws IOException {
        MetadataDump.load(target, in(dump), LoadOptions.defaults(), Progress.none());
    }

    private static void assertEmpty(MetaStore target) throws IOException {
        assertEquals(new VolumeStats(1, 0), target.stats());
        assertTrue(target.readdir(Inode.ROOT, null, 10).isEmpty());
        try (LoadTarget load = target.loadTarget()) {
            assertEquals(Optional.empty(), load.nonEmpty());
        }
    }

    private static String describe(MetaStore store) throws IOException {
        try (LoadTarget load = store.loadTarget()) {
            return load.describe();
        }
    }

    static Progress recording(List<String> warnings) {
        return new Progress() {
            @Override
            public void start(String what, long expectedEntries) {}

            @Override
            public void advance(long entries) {}

            @Override
            public synchronized void warn(String message) {
                warnings.add(message);
            }

            @Override
            public void finish() {}

            @Override
            public void fail() {}
        };
    }

    /** The store, whose load target throws on its third batch. */
    private static MetaStore failingOnThirdBatch(MetaStore store, AtomicInteger batches) {
        return (MetaStore) Proxy.newProxyInstance(LoadTest.class.getClassLoader(), new Class<?>[] {MetaStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("loadTarget")) {
                        LoadTarget target = store.loadTarget();
                        return Proxy.newProxyInstance(LoadTest.class.getClassLoader(), new Class<?>[] {LoadTarget.class},
                                (p, m, a) -> {
                                    if (m.getName().equals("write") && batches.incrementAndGet() == 3) {
                                        throw new IOException("the engine broke");
                                    }
                                    return invoke(m, target, a);
                                });
                    }
                    return invoke(method, store, args);
                });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
