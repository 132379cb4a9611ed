package io.strata.it;

import io.strata.meta.RedisTestServer;
import io.strata.meta.TestServers;
import redis.clients.jedis.Jedis;

import java.nio.file.Path;
import java.util.Optional;

/** Two daemons sharing one Redis metastore (a real redis-server, password-protected). */
class RedisMultiClientTest extends AbstractMultiClientTest {
    private final RedisTestServer server = TestServers.redis();

    @Override
    protected String metaUrl(Path base) {
        try (Jedis jedis = server.client()) {
            jedis.flushDB();
        }
        return server.url();
    }

    @Override
    protected Optional<String> secret() {
        return Optional.ofNullable(server.password());
    }
}
