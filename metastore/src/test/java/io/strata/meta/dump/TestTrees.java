package io.strata.meta.dump;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStore.ListedEntry;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import io.strata.meta.XattrMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Trees for dump/load tests, built through the public MetaStore API so that every engine holds the same. */
final class TestTrees {
    static final long T0 = 1_700_000_000_000_000_000L;
    /** Entries of the wide directory: many pages at the tests' page size. */
    static final int WIDE = 2_500;
    /** Levels of the deep chain of directories. */
    static final int DEEP = 120;
    /** Names with bytes a dump has to escape, sort or carry exactly; every engine can store them. */
    static final List<String> ODD_NAMES = List.of("with space", "tab\there", "new\nline", "quote\"d", "back\\slash",
            "ctrl\u0001\u001f\u007f", "é", "中文", "\uFFFF", "emoji\uD83D\uDE00", "\uD83D\uDE00", "-dash", "~tilde",
            "a".repeat(255), "json}{][,:");

    private TestTrees() {}

    /**
     * Hard links (a name before the primary one in depth-first order; names in two directories;
     * a primary link moved by unlink), symlinks, devices, xattrs (empty, binary, odd names),
     * odd names, a deep chain, a wide directory, synced and unsynced directories, UFS versions,
     * and an open-but-unlinked file as a session keeps it.
     */
    static void build(MetaStore store) throws IOException {
        long t = T0;
        store.putSetting("ufs_uri", "file:///data/volume");
        store.putSetting("page_size", "1048576");
        store.setXattr(Inode.ROOT, "user.root", new byte[] {1, 2, 3}, XattrMode.CREATE);

        long docs = store.create(Inode.ROOT, "docs", NewInode.directory(0750, 1000, 100, t++)).ino();
        long other = store.create(Inode.ROOT, "other", NewInode.directory(0700, 0, 0, t++)).ino();
        Inode primary = store.create(docs, "z-primary", new NewInode(InodeType.FILE, 0640, 1000, 100, 0, 4096, t++,
                T0 - 5, null, "\"etag-1\""));
        store.link(primary.ino(), docs, "a-second", t++);
        store.link(primary.ino(), other, "b-third", t++);
        // a hard link whose first name is removed: the primary moves to the remaining name
        long moved = store.create(docs, "m-first", NewInode.file(0600, 1000, 100, t++)).ino();
        store.link(moved, other, "m-second", t++);
        store.link(moved, other, "m-third", t++);
        store.unlink(docs, "m-first", t++);

        store.create(docs, "link-to-primary", NewInode.symlink("z-primary", 1000, 100, t++));
        store.create(docs, "odd-target", NewInode.symlink("../\u0001\"quoted\"\\/\uD83D\uDE00", 0, 0, t++));
        store.create(docs, "fifo", new NewInode(InodeType.FIFO, 0600, 0, 0, 0, 0, t++, t, null, null));
        store.create(docs, "socket", new NewInode(InodeType.SOCKET, 0755, 0, 0, 0, 0, t++, t, null, null));
        store.create(docs, "tty", new NewInode(InodeType.CHAR_DEVICE, 0620, 0, 5, 0x0400, 0, t++, t, null, null));
        store.create(docs, "disk", new NewInode(InodeType.BLOCK_DEVICE, 0660, 0, 6, 0x0801, 0, t++, t, null, null));

        long xattrs = store.create(docs, "xattrs", NewInode.file(04755, 0, 0, t++)).ino();
        store.setXattr(xattrs, "user.empty", new byte[0], XattrMode.CREATE);
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        store.setXattr(xattrs, "user.binary", all, XattrMode.CREATE);
        store.setXattr(xattrs, "user.名前 \"q\"\n", "value".getBytes(StandardCharsets.UTF_8), XattrMode.CREATE);
        store.setXattr(xattrs, "trusted.\uD83D\uDE00", new byte[] {0}, XattrMode.CREATE);

        long odd = store.create(Inode.ROOT, "odd", NewInode.directory(0755, 0, 0, t++)).ino();
        for (String name : ODD_NAMES) {
            store.create(odd, name, NewInode.file(0644, 0, 0, t++));
        }

        // listed from the under storage: never synced below, UFS versions, sizes and mtimes of their own
        long listed = store.create(Inode.ROOT, "listed", NewInode.directory(0755, 0, 0, t++)).ino();
        List<ListedEntry> entries = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            entries.add(new ListedEntry(String.format("obj-%02d", i), new NewInode(InodeType.FILE, 0644, 0, 0, 0,
                    1000L * i, t, T0 - i, null, "\"v" + i + "\"")));
        }
        entries.add(new ListedEntry("sub", new NewInode(InodeType.DIRECTORY, 0755, 0, 0, 0, 0, t, T0 - 1, null, null)));
        store.mergeListing(listed, entries);
        store.markSynced(listed, t++);

        long deep = Inode.ROOT;
        for (int i = 0; i < DEEP; i++) {
            deep = store.create(deep, "level" + i, NewInode.directory(0755, 0, 0, t++)).ino();
        }
        store.create(deep, "bottom", NewInode.file(0644, 0, 0, t++));

        long wide = store.create(Inode.ROOT, "wide", NewInode.directory(0755, 0, 0, t++)).ino();
        List<ListedEntry> many = new ArrayList<>();
        for (int i = 0; i < WIDE; i++) {
            many.add(new ListedEntry(String.format("f%05d", i), NewInode.file(0644, 0, 0, t)));
            if (many.size() == 500) {
                store.mergeListing(wide, many);
                many.clear();
            }
        }
        store.mergeListing(wide, many);
        long sub = store.lookup(wide, "f00007").orElseThrow().ino();
        store.link(sub, docs, "wide-link", t++);

        // an open file whose last name was removed, as a client's session keeps it (client Sessions):
        // libfuse's hidden name, and a link in /.strata/sessions/<id> that holds the data (the primary)
        long reserved = store.create(Inode.ROOT, ".strata", NewInode.directory(0700, 0, 0, t++)).ino();
        long sessions = store.create(reserved, "sessions", NewInode.directory(0700, 0, 0, t++)).ino();
        long session = store.create(sessions, "6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c",
                NewInode.directory(0700, 0, 0, t++)).ino();
        long open = store.create(docs, "open-then-unlinked", NewInode.file(0644, 1000, 100, t++)).ino();
        String hidden = ".fuse_hidden0000002a00000001";
        store.link(open, session, open + "_" + docs + "_" + hidden, t++);
        store.unlink(docs, "open-then-unlinked", t++); // the primary moves to the session's link
        store.link(open, docs, hidden, t++);

        store.setAttr(docs, SetAttr.times(T0 + 1, T0 + 2, T0 + 3));
        store.setAttr(Inode.ROOT, new SetAttr(0711, null, null, null, T0, T0, T0, null));
    }
}
