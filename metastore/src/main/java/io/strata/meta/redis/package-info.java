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
 *
 * <p>An inode is one packed binary value (Redis schema 2, the key {@code schema}), as JuiceFS
 * keeps its attributes, rather than a hash of 13-15 fields (schema 1): the server's CPU for
 * writing a million inodes with {@code redis-cli --pipe} fell from 6.2 s ({@code INFO
 * commandstats}, HSET of 13 fields) to 1.4 s (SET of a 92-byte value; 1.0 s as MSETs of 1,000)
 * and its memory from 240 to 161 MB, and a getattr or a dump reads one string instead of 26.
 * The scripts keep Lua's doubles away from 64-bit numbers: they splice bytes that Java packed
 * and only compute nlink and the flags byte (see {@code common.lua}). Schema 1 volumes are
 * refused on open with what to do: dump with the Strata that wrote them, load with this one.
 */
package io.strata.meta.redis;
