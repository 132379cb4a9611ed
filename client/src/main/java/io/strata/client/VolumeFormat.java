package io.strata.client;

import io.strata.core.cache.CacheOptions;
import io.strata.core.conf.DataSize;
import io.strata.core.conf.Options;
import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UnderFileSystem;
import io.strata.core.ufs.UnderFileSystems;
import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreUrls;
import io.strata.meta.MetaStores;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * A volume's settings in its metastore, written once by {@code strata format} (or the first mount)
 * and read by every client: the under storage it is bound to, its id, and the page size its
 * clients cache with. A client that knows only the metastore (the Hadoop adapter, {@code strata
 * mount} of a formatted metastore) finds the rest here, so all of them are one volume.
 */
public final class VolumeFormat {
    /** The volume setting holding the page size chosen at format, in bytes. */
    static final String PAGE_SIZE_SETTING = "page_size";

    private VolumeFormat() {}

    /** What a format made, or found already made with the same source. */
    public record Formatted(URI source, String volumeId, int pageSize, boolean created) {}

    /**
     * Binds the metastore at {@code metaUrl} to {@code source}, once the under storage has opened
     * with {@code options} (a missing bucket or directory fails here, not at the first mount).
     * Formatting again with the same source changes nothing; with another source it fails.
     */
    public static Formatted format(String metaUrl, URI source, Options options) throws IOException {
        URI uri = UnderFileSystems.toUri(source.toString());
        try (UnderFileSystem ufs = UnderFileSystems.open(uri, options)) {
            uri = ufs.uri();
        }
        try (MetaStore meta = MetaStores.open(metaUrl)) {
            boolean created = meta.getSetting(StrataFileSystem.UFS_URI_SETTING).isEmpty();
            StrataFileSystem.bind(meta, uri, MetaStoreUrls.redact(metaUrl));
            String volumeId = StrataFileSystem.volumeId(meta);
            Optional<Integer> kept = pageSize(meta);
            int pageSize;
            if (kept.isPresent()) {
                pageSize = kept.get();
            } else {
                pageSize = Math.toIntExact(options.get(CacheOptions.PAGE_SIZE).bytes());
                meta.putSetting(PAGE_SIZE_SETTING, Integer.toString(pageSize));
            }
            return new Formatted(uri, volumeId, pageSize, created);
        }
    }

    /** The under storage the metastore at {@code metaUrl} is bound to; ENOENT when it was never formatted. */
    public static URI source(String metaUrl) throws IOException {
        try (MetaStore meta = MetaStores.open(metaUrl)) {
            return meta.getSetting(StrataFileSystem.UFS_URI_SETTING).map(URI::create)
                    .orElseThrow(() -> new FsException(FsError.ENOENT, "metastore " + MetaStoreUrls.redact(metaUrl)
                            + " holds no volume; create one with 'strata format META_URL SOURCE'"));
        }
    }

    /**
     * {@code options} with the volume's page size when the caller did not set one: pages cached by
     * every client of the volume then have one size.
     */
    static Options withVolumePageSize(MetaStore meta, Options options) throws IOException {
        if (options.isSet(CacheOptions.PAGE_SIZE)) {
            return options;
        }
        Optional<Integer> pageSize = pageSize(meta);
        return pageSize.isEmpty() ? options : options.with(CacheOptions.PAGE_SIZE, DataSize.ofBytes(pageSize.get()));
    }

    private static Optional<Integer> pageSize(MetaStore meta) throws IOException {
        return meta.getSetting(PAGE_SIZE_SETTING).map(Integer::parseInt);
    }
}
