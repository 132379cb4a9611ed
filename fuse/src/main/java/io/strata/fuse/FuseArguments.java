package io.strata.fuse;

import io.strata.core.conf.Durations;
import io.strata.core.conf.Options;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Turns a mount's options into libfuse2's {@code -o} arguments. */
final class FuseArguments {
    /** libfuse2 never sends requests larger than this, whatever max_read/max_write say. */
    static final int LIBFUSE2_MAX_REQUEST = 128 * 1024;

    private FuseArguments() {}

    /**
     * The mount's source as mountinfo and df show it, the same for both transports:
     * {@code strata:/dir} or {@code strata:s3://bucket/prefix} (what strata bench reports). Commas
     * would split the mount's option list.
     */
    static String fsName(URI source) {
        return "strata:" + (source.getScheme().equals("file") ? source.getPath() : source.toString()).replace(',', '_');
    }

    static String[] build(URI source, Options options) {
        List<String> o = new ArrayList<>();
        o.add("fsname=" + fsName(source));
        o.add("subtype=strata");
        // The kernel checks permissions against the modes we report, as on a local file system.
        o.add("default_permissions");
        // Inode numbers from the metastore, so hard links share st_ino.
        o.add("use_ino");
        o.add("readdir_ino");
        o.add("big_writes");
        o.add("max_read=" + options.get(FuseOptions.MAX_READ).bytes());
        o.add("max_write=" + options.get(FuseOptions.MAX_WRITE).bytes());
        o.add("attr_timeout=" + Durations.toSeconds(options.get(FuseOptions.ATTR_TIMEOUT)));
        o.add("entry_timeout=" + Durations.toSeconds(options.get(FuseOptions.ENTRY_TIMEOUT)));
        String cacheMode = KernelCacheMode.from(options).fuseOption();
        if (cacheMode != null) {
            o.add(cacheMode);
        }
        if (options.get(FuseOptions.ALLOW_OTHER)) {
            o.add("allow_other");
        }
        if (options.get(io.strata.client.VolumeOptions.READ_ONLY)) {
            o.add("ro");
        }
        if (options.get(FuseOptions.UID) != null) {
            o.add("uid=" + options.get(FuseOptions.UID));
        }
        if (options.get(FuseOptions.GID) != null) {
            o.add("gid=" + options.get(FuseOptions.GID));
        }
        if (options.get(FuseOptions.UMASK) != null) {
            o.add("umask=0" + Integer.toOctalString(options.get(FuseOptions.UMASK)));
        }
        return new String[] {"-o", String.join(",", o)};
    }
}
