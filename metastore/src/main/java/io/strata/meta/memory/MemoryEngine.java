package io.strata.meta.memory;

import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreEngine;
import io.strata.meta.MetaStoreUrls;

import java.util.List;

/** {@code memory://}: a new, empty, private volume each time, gone when closed. */
public final class MemoryEngine implements MetaStoreEngine {
    @Override
    public List<String> schemes() {
        return List.of("memory");
    }

    @Override
    public String usage() {
        return "memory://";
    }

    @Override
    public MetaStore open(String url) {
        if (!url.substring(url.indexOf("://") + 3).isEmpty()) {
            throw new IllegalArgumentException("metastore URL '" + MetaStoreUrls.redact(url)
                    + "' names no path: memory:// is always a new, private volume");
        }
        return new MemoryMetaStore();
    }
}
