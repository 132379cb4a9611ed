package io.strata.core.conf;

import java.util.List;

/**
 * The options of one subsystem, found by {@link java.util.ServiceLoader}: each module lists its
 * groups in {@code META-INF/services/io.strata.core.conf.OptionGroup}, so the registry, {@code
 * strata conf} and the README table see every option without core knowing the modules above it.
 */
public interface OptionGroup {
    /** A short title for listings, e.g. "FUSE" or "Metastore". */
    String title();

    List<Option<?>> options();
}
