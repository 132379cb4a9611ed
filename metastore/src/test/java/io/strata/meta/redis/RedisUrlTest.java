package io.strata.meta.redis;

import io.strata.meta.MetaStoreUrls;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Taking a Redis metastore URL apart: defaults, TLS, credentials, never the password in messages. */
final class RedisUrlTest {
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @Test
    void defaultsArePort6379AndDatabase0() {
        RedisUrl url = RedisUrl.parse("redis://cache", NO_ENVIRONMENT::get);
        assertEquals("redis://cache:6379/0", url.describe());
        assertEquals(0, url.clientConfig().getDatabase());
    }

    @Test
    void passwordAndUserAreTakenButNotShown() {
        RedisUrl url = RedisUrl.parse("rediss://alice:p%40ss@cache:6380/3", NO_ENVIRONMENT::get);
        assertEquals("rediss://alice:***@cache:6380/3", url.describe());
        assertEquals("p@ss", url.clientConfig().getPassword());
        assertEquals("alice", url.clientConfig().getUser());
        assertEquals(true, url.clientConfig().isSsl());
        assertEquals(3, url.clientConfig().getDatabase());
    }

    @Test
    void passwordComesFromTheEnvironmentOnlyWhenTheUrlHasNone() {
        Map<String, String> environment = Map.of(MetaStoreUrls.PASSWORD_ENV, "from-env");
        assertEquals("from-env", RedisUrl.parse("redis://cache/1", environment::get).clientConfig().getPassword());
        assertEquals("in-url", RedisUrl.parse("redis://:in-url@cache/1", environment::get).clientConfig().getPassword());
    }

    @Test
    void malformedUrlsAreRejected() {
        for (String url : new String[] {"redis://cache/one", "redis://cache/-1", "redis:///1", "redis://cache/1?db=2"}) {
            assertThrows(IllegalArgumentException.class, () -> RedisUrl.parse(url, NO_ENVIRONMENT::get), url);
        }
    }
}
