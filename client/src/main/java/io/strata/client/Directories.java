package io.strata.client;

import io.strata.meta.Dentry;
import io.strata.meta.MetaStore;

import java.io.IOException;
import java.util.List;

/** Walks a directory's entries through the metastore in pages, so no directory is ever loaded whole. */
final class Directories {
    /** Entries per metastore call. */
    static final int PAGE = 1000;

    private Directories() {}

    /** What to do with each entry; may do I/O. */
    @FunctionalInterface
    interface EntryAction {
        void accept(Dentry entry) throws IOException;
    }

    /** Calls {@code action} for every entry of {@code dir}, in the metastore's name order. */
    static void forEachEntry(MetaStore meta, long dir, EntryAction action) throws IOException {
        String after = null;
        List<Dentry> page;
        do {
            page = meta.readdir(dir, after, PAGE);
            for (Dentry entry : page) {
                action.accept(entry);
            }
            if (!page.isEmpty()) {
                after = page.get(page.size() - 1).name();
            }
        } while (page.size() == PAGE);
    }
}
