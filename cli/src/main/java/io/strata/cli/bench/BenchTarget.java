package io.strata.cli.bench;

import io.strata.fuse.MountPoints;

import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where {@code strata bench} runs: the directory given ({@code path}, symlinks resolved) and the
 * mount holding it, from {@code /proc/self/mountinfo}; for a Strata mount, what it mounts.
 */
public record BenchTarget(Path path, Optional<MountPoints.Entry> mount) {
    /** Strata's mounts are {@code fuse.strata}, their source {@code strata:<source>} (see KernelTransport). */
    private static final String STRATA_TYPE = "fuse.strata";
    private static final String STRATA_SOURCE = "strata:";

    public BenchTarget {
        requireNonNull(path, "path is null");
        requireNonNull(mount, "mount is null");
    }

    /** {@code realPath} and the mount holding it: the longest mount point above it, the topmost of equals. */
    public static BenchTarget of(Path realPath) {
        MountPoints.Entry found = null;
        for (MountPoints.Entry entry : MountPoints.table()) {
            if (realPath.startsWith(entry.mountPoint()) && (found == null
                    || entry.mountPoint().getNameCount() >= found.mountPoint().getNameCount())) {
                found = entry;
            }
        }
        return new BenchTarget(realPath, Optional.ofNullable(found));
    }

    /** What the Strata mount holding the path mounts, {@code s3} or {@code directory}; empty off Strata. */
    public Optional<String> strataKind() {
        return mount.filter(m -> m.fsType().equals(STRATA_TYPE))
                .map(m -> strataSource().startsWith("s3://") ? "s3" : "directory");
    }

    /** The mount in a few words: {@code a Strata mount of s3://bucket/prefix (S3) at /mnt}, {@code ext4 (/dev/sda1) at /}. */
    public String describeMount() {
        if (mount.isEmpty()) {
            return "a file system missing from the mount table";
        }
        MountPoints.Entry entry = mount.get();
        return strataKind()
                .map(kind -> "a Strata mount of " + strataSource() + " (" + (kind.equals("s3") ? "S3" : "local directory")
                        + ") at " + entry.mountPoint())
                .orElse(entry.fsType() + " (" + entry.source() + ") at " + entry.mountPoint());
    }

    private String strataSource() {
        String source = mount.map(MountPoints.Entry::source).orElse("");
        return source.startsWith(STRATA_SOURCE) ? source.substring(STRATA_SOURCE.length()) : source;
    }
}
