package io.strata.meta.redis;

import io.strata.meta.MetaStore;
import io.strata.meta.MetaStoreEngine;

import java.io.IOException;
import java.util.List;

/** {@code redis[s]://[[user]:password@]host[:port][/db]}: see {@link RedisMetaStore}. */
public final class RedisEngine implements MetaStoreEngine {
    @Override
    public List<String> schemes() {
        return List.of("redis", "rediss");
    }

    @Override
    public String usage() {
        return "redis://host:port/db";
    }

    @Override
    public MetaStore open(String url) throws IOException {
        return RedisMetaStore.open(url);
    }
}
