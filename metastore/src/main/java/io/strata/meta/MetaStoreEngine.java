package io.strata.meta;

import java.io.IOException;
import java.util.List;

/**
 * One metastore engine as {@link MetaStores#open} finds it: by the scheme of a URL. Engines add
 * themselves with a line in {@code META-INF/services/io.strata.meta.MetaStoreEngine}
 * ({@link java.util.ServiceLoader}), so that {@code MetaStores} names none of them and none of
 * them depends on it.
 */
public interface MetaStoreEngine {
    /** The URL schemes this engine opens, lower case, as {@link MetaStoreUrls#scheme} gives them. */
    List<String> schemes();

    /** The shape of its URL, for the message that lists the engines, e.g. "sqlite:///path/meta.db". */
    String usage();

    /**
     * Opens the volume at {@code url}, whose scheme is one of {@link #schemes()}.
     *
     * @throws IllegalArgumentException for a malformed URL (the message has no password in it)
     * @throws IOException if the engine cannot be reached or the volume is not one this build reads
     */
    MetaStore open(String url) throws IOException;
}
