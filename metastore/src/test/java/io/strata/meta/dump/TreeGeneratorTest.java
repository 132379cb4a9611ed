package io.strata.meta.dump;

import io.strata.meta.Dentry;
import io.strata.meta.Inode;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NamespaceChecks;
import io.strata.meta.dump.MetadataDump.DumpOptions;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import io.strata.meta.dump.MetadataDump.LoadSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.strata.meta.dump.DumpFormatTest.dump;
import static io.strata.meta.dump.DumpFormatTest.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark's tree: exactly N inodes, consistent, with the mix it promises, the same for a seed. */
class TreeGeneratorTest {
    @TempDir
    Path dir;

    @Test
    void generatesAConsistentTreeOfExactlyNInodes() throws IOException {
        try (MetaStore store = MetaStores.open("memory://")) {
            List<String> warnings = new java.util.ArrayList<>();
            LoadSummary summary = MetadataDump.generate(store, 25_000, 7, LoadOptions.defaults(),
                    LoadTest.recording(warnings));
            assertEquals(List.of(), warnings, "the generator's dumped nlink and counters are right");
            assertEquals(25_000, summary.inodes());
            assertEquals(25_000, store.stats().inodes());
            assertTrue(summary.entries() > 25_000, "hard links add names: " + summary.entries());
            NamespaceChecks.check(store);

            String text = dump(store, DumpOptions.defaults());
            long symlinks = count(text, "\"type\":\"symlink\"");
            long secondNames = count(text, "\"primary\":false");
            long xattrs = count(text, "\"xattrs\":");
            assertTrue(symlinks > 100 && symlinks < 500, "about 1 % symlinks: " + symlinks);
            assertTrue(secondNames > 100 && secondNames < 500, "about 1 % hard links: " + secondNames);
            assertTrue(xattrs > 300 && xattrs < 1500, "some xattrs: " + xattrs);
            List<Dentry> top = store.readdir(Inode.ROOT, null, 1000);
            assertTrue(top.size() > 50 && top.size() < 200, "fan-out about 100: " + top.size());
        }
    }

    @Test
    void sameSeedSameTreeInEveryEngine() throws IOException {
        try (MetaStore memory = MetaStores.open("memory://");
                MetaStore sqlite = MetaStores.open("sqlite://" + dir.resolve("meta.db"))) {
            MetadataDump.generate(memory, 3_000, 42, LoadOptions.defaults(), Progress.none());
            MetadataDump.generate(sqlite, 3_000, 42, LoadOptions.defaults(), Progress.none());
            String first = dump(memory, DumpOptions.defaults());
            assertEquals(first, dump(sqlite, DumpOptions.defaults()));
            try (MetaStore again = MetaStores.open("memory://")) {
                MetadataDump.load(again, in(first), LoadOptions.defaults(), Progress.none());
                assertEquals(first, dump(again, DumpOptions.defaults()));
            }
        }
    }

    private static long count(String text, String what) {
        long count = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            count++;
        }
        return count;
    }
}
