package io.strata.meta.dump;

import io.strata.meta.Inode;
import io.strata.meta.InodeType;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStores;
import io.strata.meta.NewInode;
import io.strata.meta.SetAttr;
import io.strata.meta.XattrMode;
import io.strata.meta.dump.MetadataDump.DumpOptions;
import io.strata.meta.dump.MetadataDump.DumpResult;
import io.strata.meta.dump.MetadataDump.LoadOptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dump format as DumpFormat's header documents it, byte for byte, and what it must carry exactly. */
class DumpFormatTest {
    private static final long T = 1_700_000_000_000_000_000L;

    @Test
    void smallTreeDumpsAsDocumented() throws IOException {
        try (MetaStore store = MetaStores.open("memory://")) {
            store.putSetting("ufs_uri", "file:///data");
            store.putSetting("s3_secret_key", "hunter2");
            long dir = store.create(Inode.ROOT, "dir", NewInode.directory(0750, 1000, 100, T)).ino();
            long file = store.create(dir, "file", new NewInode(InodeType.FILE, 0644, 1000, 100, 0, 5, T, T, null,
                    "\"e1\"")).ino();
            store.link(file, Inode.ROOT, "hard", T);
            store.create(Inode.ROOT, "sym", NewInode.symlink("dir/file", 0, 0, T));
            store.setXattr(file, "user.k", new byte[] {1, 2, 3}, XattrMode.CREATE);
            store.setXattr(file, "user.e", new byte[0], XattrMode.CREATE);
            store.setAttr(Inode.ROOT, new SetAttr(0755, null, null, null, T, T, T, null));
            store.setAttr(dir, SetAttr.times(T, T, T));

            String expected = """
                    {"format":"strata-dump",
                    "version":1,
                    "settings":{"ufs_uri":"file:///data"},
                    "secretsRemoved":["s3_secret_key"],
                    "counters":{"nextInode":5,"inodes":4,"usedBytes":5},
                    "sustained":[],
                    "tree":{"ino":1,"type":"dir","mode":"0755","uid":0,"gid":0,"atime":T,"mtime":T,"ctime":T,\
                    "nlink":3,"size":0,"rdev":0,"synced":-1,"entries":[
                    {"name":"dir","ino":2,"type":"dir","mode":"0750","uid":1000,"gid":100,"atime":T,"mtime":T,\
                    "ctime":T,"nlink":2,"size":0,"rdev":0,"synced":T,"entries":[
                    {"name":"file","ino":3,"type":"file","mode":"0644","uid":1000,"gid":100,"atime":T,"mtime":T,\
                    "ctime":T,"nlink":2,"size":5,"rdev":0,"ufsVersion":"\\"e1\\"","xattrs":{"user.e":"","user.k":"AQID"}}]},
                    {"name":"hard","ino":3,"type":"file","mode":"0644","uid":1000,"gid":100,"atime":T,"mtime":T,\
                    "ctime":T,"nlink":2,"size":5,"rdev":0,"primary":false,"ufsVersion":"\\"e1\\"",\
                    "xattrs":{"user.e":"","user.k":"AQID"}},
                    {"name":"sym","ino":4,"type":"symlink","mode":"0777","uid":0,"gid":0,"atime":T,"mtime":T,\
                    "ctime":T,"nlink":1,"size":8,"rdev":0,"target":"dir/file"}]}
                    }
                    """.replace("T,", T + ",").replace("T}", T + "}");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            DumpResult result = MetadataDump.dump(store, out, DumpOptions.defaults(), Progress.none());
            assertEquals(expected, out.toString(StandardCharsets.UTF_8));
            assertEquals(4, result.entries(), "a hard link counts at each name");
            assertEquals(List.of("s3_secret_key"), result.secretsRemoved());
        }
    }

    @Test
    void secretsAreKeptOnlyWhenAskedFor() throws IOException {
        try (MetaStore store = MetaStores.open("memory://")) {
            store.putSetting("ufs_uri", "s3://AKIA:verysecret@bucket/prefix");
            store.putSetting("token", "t0k3n");
            store.putSetting("page_size", "1048576");
            String left = dump(store, DumpOptions.defaults());
            assertTrue(left.contains("\"settings\":{\"page_size\":\"1048576\"}"), left);
            assertTrue(left.contains("\"secretsRemoved\":[\"token\",\"ufs_uri\"]"), left);
            assertTrue(!left.contains("verysecret") && !left.contains("t0k3n"), left);

            String kept = dump(store, DumpOptions.defaults().withKeepSecrets(true));
            assertTrue(kept.contains("\"token\":\"t0k3n\""), kept);
            assertTrue(kept.contains("verysecret"), kept);
            assertTrue(kept.contains("\"secretsRemoved\":[]"), kept);
        }
    }

    @Test
    void unpairedSurrogatesControlCharactersAndAllByteValuesRoundTrip() throws IOException {
        List<String> names = List.of("\uD800", "lone\uDC00low", "\uDBFF\uDBFF", "nul\u0000", "bell\u0007",
                "\u001b[31mred", "q\"\\", "\uD83D\uDE00pair");
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (255 - i);
        }
        try (MetaStore source = MetaStores.open("memory://"); MetaStore target = MetaStores.open("memory://")) {
            for (String name : names) {
                long ino = source.create(Inode.ROOT, name, NewInode.symlink(name + "/" + name, 0, 0, T)).ino();
                source.setXattr(ino, "user." + name, all, XattrMode.CREATE);
                source.setXattr(ino, "user.empty", new byte[0], XattrMode.CREATE);
            }
            String first = dump(source, DumpOptions.defaults());
            MetadataDump.load(target, in(first), LoadOptions.defaults(), Progress.none());
            for (String name : names) {
                long ino = target.lookup(Inode.ROOT, name).orElseThrow().ino();
                assertEquals(name + "/" + name, target.readlink(ino));
                assertArrayEquals(all, target.getXattr(ino, "user." + name).orElseThrow());
                assertArrayEquals(new byte[0], target.getXattr(ino, "user.empty").orElseThrow());
            }
            assertEquals(first, dump(target, DumpOptions.defaults()));
            assertTrue(first.chars().allMatch(c -> c >= 0x20 && c < 0xD800 || c == '\n' || c > 0xDFFF),
                    "control characters and surrogates are escaped, the dump is valid UTF-8 text");
        }
    }

    @Test
    void emptyVolumeRoundTrips() throws IOException {
        try (MetaStore source = MetaStores.open("memory://"); MetaStore target = MetaStores.open("memory://")) {
            String first = dump(source, DumpOptions.defaults());
            MetadataDump.load(target, in(first), LoadOptions.defaults(), Progress.none());
            assertEquals(first, dump(target, DumpOptions.defaults()));
            assertEquals(Optional.empty(), target.loadTarget().nonEmpty());
        }
    }

    static String dump(MetaStore store, DumpOptions options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MetadataDump.dump(store, out, options, Progress.none());
        return out.toString(StandardCharsets.UTF_8);
    }

    static ByteArrayInputStream in(String dump) {
        return new ByteArrayInputStream(dump.getBytes(StandardCharsets.UTF_8));
    }
}
