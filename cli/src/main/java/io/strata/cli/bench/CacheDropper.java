package io.strata.cli.bench;

import io.strata.cli.Messages;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Empties the kernel's caches between the write and read phases of {@code strata bench}, so reads
 * reach the file system instead of the page cache: {@code sync}, then 3 into
 * {@code /proc/sys/vm/drop_caches} (page cache, dentries and inodes; see proc(5)). Only root may,
 * and not in every container. It says why when it cannot, so the report can warn that reads may
 * have come from memory. Strata's own page cache (memory and disk tiers) is not the kernel's and
 * stays: a read through a mount may still be served from it.
 */
public final class CacheDropper {
    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");
    private static final long SYNC_TIMEOUT_SECONDS = 120;

    private final boolean enabled;
    private String failure;

    /** {@code enabled} false never drops (--no-drop-caches: the machine is shared, or the caches are the point). */
    public CacheDropper(boolean enabled) {
        this.enabled = enabled;
        this.failure = enabled ? null : "--no-drop-caches";
    }

    /** Drops the caches; after the first failure it stops trying. */
    public void drop() {
        if (failure != null) {
            return;
        }
        try {
            sync();
            Files.writeString(DROP_CACHES, "3");
        } catch (IOException e) {
            failure = Messages.describe(e) + (isRoot() ? "" : "; needs root");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        }
    }

    /** Why the caches were not dropped, if they were not. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    public boolean enabled() {
        return enabled;
    }

    /** sync(1): written data reaches the disk, so the drop leaves no dirty pages behind. */
    private static void sync() throws IOException, InterruptedException {
        Process sync = new ProcessBuilder("sync").redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!sync.waitFor(SYNC_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            sync.destroyForcibly();
            throw new IOException("sync did not finish within " + SYNC_TIMEOUT_SECONDS + " s");
        }
    }

    /** Whether this process runs as uid 0: /proc/self belongs to the process's user. */
    private static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
