-- For strata dump (RedisDumpSource), not a RedisScripts script. RedisKeys.luaPrelude() comes
-- before it. ARGV: dir, ZRANGEBYLEX minimum ('-' from the first, '(' .. name after a name), limit.
-- Returns one page of the directory, read at one instant: {names in byte order, their entries
-- ("f42"; false if the name has none), the packed inodes they name (false if none), xattrs},
-- xattrs being {index, HGETALL of x<ino>, index, ...} for only the inodes whose flag says they
-- have any. Three calls for most pages (ZRANGEBYLEX, HMGET, MGET), whatever the page's size.
local names = redis.call('ZRANGEBYLEX', names_key(ARGV[1]), ARGV[2], '+', 'LIMIT', 0, ARGV[3])
if #names == 0 then
  return {{}, {}, {}, {}}
end
local entries = redis.call('HMGET', entries_key(ARGV[1]), unpack(names))
local keys = {}
for i = 1, #names do
  -- inode 0 is never handed out: a name removed since it was listed reads as no inode
  keys[i] = inode_key(entries[i] and entry_ino(entries[i]) or '0')
end
local inodes = redis.call('MGET', unpack(keys))
local xattrs = {}
for i = 1, #names do
  local packed = inodes[i]
  if packed and bit.band(string.byte(packed, FLAGS + 1), HAS_XATTRS) ~= 0 then
    xattrs[#xattrs + 1] = i
    xattrs[#xattrs + 1] = redis.call('HGETALL', xattrs_key(entry_ino(entries[i])))
  end
end
return {names, entries, inodes, xattrs}
