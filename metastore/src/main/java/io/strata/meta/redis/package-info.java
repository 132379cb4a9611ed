/**
 * The Redis metastore engine ({@code redis://host:port/db}, {@code rediss://} for TLS): one
 * volume per Redis database, shared by any number of clients.
 *
 * <p>{@code RedisKeys} opens with the whole key schema and builds every key, for Java and for
 * the Lua scripts. {@link io.strata.meta.redis.RedisMetaStore} fronts the engine: reads as single
 * commands or MULTI/EXEC pipelines, every change as one script of {@code RedisScripts}
 * ({@code src/main/resources/io/strata/meta/redis/*.lua}, run with EVALSHA). {@code RedisCodec}
 * encodes inodes and entries, {@code RedisUrl} takes the URL apart (the password from the URL or
 * the environment), {@code RedisInodeNumbers} hands out inode numbers in batches.
 */
package io.strata.meta.redis;
