-- For strata dump (RedisDumpSource), not a RedisScripts script. RedisKeys.luaPrelude() comes
-- before it. ARGV: dir, ZRANGEBYLEX minimum ('-' from the first, '(' .. name after a name), limit.
-- Returns one page of the directory's names in byte order and their entries ("f42"; false if the
-- name has none), read together: {{name...}, {entry...}}.
local names = redis.call('ZRANGEBYLEX', names_key(ARGV[1]), ARGV[2], '+', 'LIMIT', 0, ARGV[3])
if #names == 0 then
  return {{}, {}}
end
return {names, redis.call('HMGET', entries_key(ARGV[1]), unpack(names))}
