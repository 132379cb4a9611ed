package io.strata.fuse;

import io.strata.core.conf.Options;

import java.net.URI;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * What to mount where: the under-storage URI ({@code file:///abs/dir}), an existing empty
 * directory as the mountpoint, and the bound options.
 */
public record MountRequest(URI source, Path mountPoint, Options options) {
    public MountRequest {
        requireNonNull(source, "source is null");
        requireNonNull(mountPoint, "mountPoint is null");
        requireNonNull(options, "options is null");
    }
}
