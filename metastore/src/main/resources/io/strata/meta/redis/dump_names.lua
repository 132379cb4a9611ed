-- For strata dump (RedisDumpSource), not a RedisScripts script. RedisKeys.luaPrelude() comes
-- before it. ARGV: dir, ZRANGEBYLEX minimum ('-' from the first, '(' .. name after a name), limit.
-- Returns one page of the directory, read at one instant, in one of two shapes:
--   {names in byte order, their entries ("f42"; false if the name has none), the packed inodes
--   they name (false if none), xattrs}, or, for a whole directory that fits the page,
--   {HGETALL of d<dir> (name, entry, name, entry... in the hash's order: the caller sorts them),
--   the packed inodes of the entries in that order, xattrs},
-- xattrs being {index of the name from 1, HGETALL of x<ino>, index, ...} for only the inodes
-- whose flag says they have any.
local dir = ARGV[1]

-- the inodes the entries name, and the xattrs of those flagged as having any
local function inodes_of(entries, count, step)
  local keys = {}
  for i = 1, count do
    -- inode 0 is never handed out: a name removed since it was listed reads as no inode
    local entry = entries[i * step]
    keys[i] = inode_key(entry and entry_ino(entry) or '0')
  end
  local inodes = redis.call('MGET', unpack(keys))
  local xattrs = {}
  for i = 1, count do
    local packed = inodes[i]
    if packed and bit.band(string.byte(packed, FLAGS + 1), HAS_XATTRS) ~= 0 then
      xattrs[#xattrs + 1] = i
      xattrs[#xattrs + 1] = redis.call('HGETALL', xattrs_key(entry_ino(entries[i * step])))
    end
  end
  return inodes, xattrs
end

if ARGV[2] == '-' then
  -- Most directories fit a page: one HGETALL of the entries then, O(n), where ZRANGEBYLEX and an
  -- HMGET of the names look each name up by a linear scan of a small hash (a listpack): the
  -- server's CPU per page of 100 names is about 30 % less. Only when the index of names has as
  -- many as the hash, so that both shapes list the same names in a sound volume.
  local count = redis.call('HLEN', entries_key(dir))
  if count > 0 and count <= tonumber(ARGV[3]) and count == redis.call('ZCARD', names_key(dir)) then
    local flat = redis.call('HGETALL', entries_key(dir))
    local inodes, xattrs = inodes_of(flat, #flat / 2, 2)
    return {flat, inodes, xattrs}
  end
end
local names = redis.call('ZRANGEBYLEX', names_key(dir), ARGV[2], '+', 'LIMIT', 0, ARGV[3])
if #names == 0 then
  return {{}, {}, {}, {}}
end
local entries = redis.call('HMGET', entries_key(dir), unpack(names))
local inodes, xattrs = inodes_of(entries, #names, 1)
return {names, entries, inodes, xattrs}
