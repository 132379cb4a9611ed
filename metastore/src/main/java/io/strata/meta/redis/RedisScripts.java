package io.strata.meta.redis;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The Lua scripts of the Redis metastore: each multi-key change runs as one script, atomically on
 * the server. Sources are {@code io/strata/meta/redis/<name>.lua}, each run after
 * {@link RedisKeys#luaPrelude()} and {@code common.lua}. They are loaded once with SCRIPT LOAD
 * and run with EVALSHA; a server that lost them (restarted, SCRIPT FLUSH) gets them again.
 *
 * <p>A script replies {@code {'OK', ...}} or {@code {ERROR, message}}: an errno name becomes an
 * {@link FsException}, anything else an IOException.
 */
final class RedisScripts {
    /** Every script, named after its file. */
    enum Script {
        FORMAT, CREATE, MERGE, LINK, UNLINK, RMDIR, RENAME, SETATTR, SETXATTR, REMOVEXATTR, MARKSYNCED, READDIR,
        /** fsck's repair of a primary link. */
        SETPRIMARY;

        String file() {
            return name().toLowerCase(java.util.Locale.ROOT) + ".lua";
        }
    }

    private static final String OK = "OK";

    private final UnifiedJedis jedis;
    private final String where;
    private final Map<Script, String> sources = new EnumMap<>(Script.class);
    private final Map<Script, byte[]> shas = new EnumMap<>(Script.class);

    RedisScripts(UnifiedJedis jedis, String where) {
        this.jedis = requireNonNull(jedis, "jedis is null");
        this.where = requireNonNull(where, "where is null");
        String common = RedisKeys.luaPrelude() + resource("common.lua");
        for (Script script : Script.values()) {
            sources.put(script, common + resource(script.file()));
        }
    }

    /** Loads every script into the server's script cache. */
    void load() {
        for (Script script : Script.values()) {
            load(script);
        }
    }

    /**
     * Runs a script with {@code args} (strings are sent as UTF-8, byte arrays as they are) and
     * returns its reply after the status; throws the error it reports.
     */
    List<Object> run(Script script, Object... args) throws IOException {
        List<byte[]> encoded = new ArrayList<>(args.length);
        for (Object arg : args) {
            encoded.add(arg instanceof byte[] bytes ? bytes : RedisKeys.bytes(String.valueOf(arg)));
        }
        return run(script, encoded);
    }

    List<Object> run(Script script, List<byte[]> args) throws IOException {
        Object reply;
        try {
            reply = jedis.evalsha(sha(script), List.of(), args);
        } catch (JedisNoScriptException e) {
            load(script);
            reply = jedis.evalsha(sha(script), List.of(), args);
        }
        if (!(reply instanceof List<?> list) || list.isEmpty()) {
            throw new IOException("metastore " + where + ": script " + script.file() + " replied " + reply);
        }
        String status = RedisCodec.string(list.get(0));
        if (!OK.equals(status)) {
            String message = list.size() > 1 ? RedisCodec.string(list.get(1)) : "";
            throw failure(status, message);
        }
        @SuppressWarnings("unchecked")
        List<Object> result = (List<Object>) list.subList(1, list.size());
        return result;
    }

    private IOException failure(String status, String message) {
        for (FsError error : FsError.values()) {
            if (error.name().equals(status)) {
                return new FsException(error, message);
            }
        }
        if (status.equals("CORRUPT")) {
            return new IOException("corrupt metastore " + where + ": " + message);
        }
        return new IOException("metastore " + where + " " + message);
    }

    private synchronized byte[] sha(Script script) {
        byte[] sha = shas.get(script);
        if (sha == null) {
            sha = load(script);
        }
        return sha;
    }

    private synchronized byte[] load(Script script) {
        byte[] sha = RedisKeys.bytes(jedis.scriptLoad(sources.get(script)));
        shas.put(script, sha);
        return sha;
    }

    static String resource(String file) {
        try (InputStream in = RedisScripts.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("script " + file + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + file, e);
        }
    }
}
