-- Shared by every script of the Redis metastore; RedisKeys.luaPrelude() comes before it. A script
-- returns {'OK', ...} or {ERROR, message}, ERROR being an errno name (ENOENT...) or CORRUPT.
-- An inode is one packed value (the layout and the offsets, counted from 0 as GETRANGE and
-- SETRANGE count, are in RedisKeys). Lua numbers are doubles: the 8-byte fields (times, size,
-- parent) are only copied and spliced, never computed with; size and parent are turned into
-- decimal and back byte by byte (u64_decimal, u64_bytes), where every step is a small integer.

local function failure(code, message)
  return {code, message}
end

local function describe(parent, name)
  return "'" .. name .. "' in directory " .. parent
end

-- the 4-byte big-endian number at offset
local function u32(value, offset)
  local a, b, c, d = string.byte(value, offset + 1, offset + 4)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

local function u32_bytes(n)
  return string.char(math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
end

-- the decimal digits of 8 big-endian bytes (a size or an inode number: never negative)
local function u64_decimal(bytes)
  local limbs = {string.byte(bytes, 1, 8)}
  local digits = {}
  repeat
    local remainder, more = 0, false
    for i = 1, 8 do
      local x = remainder * 256 + limbs[i]
      limbs[i] = math.floor(x / 10)
      remainder = x % 10
      more = more or limbs[i] ~= 0
    end
    digits[#digits + 1] = remainder
  until not more
  return string.reverse(table.concat(digits))
end

-- 8 big-endian bytes of a decimal string (an inode number)
local function u64_bytes(decimal)
  local limbs = {0, 0, 0, 0, 0, 0, 0, 0}
  for i = 1, #decimal do
    local carry = string.byte(decimal, i) - 48
    for j = 8, 1, -1 do
      local x = limbs[j] * 10 + carry
      limbs[j] = x % 256
      carry = math.floor(x / 256)
    end
  end
  return string.char(unpack(limbs))
end

-- the value with bytes in place of as many bytes at offset
local function splice(value, offset, bytes)
  return string.sub(value, 1, offset) .. bytes .. string.sub(value, offset + #bytes + 1)
end

local function field(value, offset, length)
  return string.sub(value, offset + 1, offset + length)
end

local function inode_type(value)
  return string.sub(value, TYPE + 1, TYPE + 1)
end

local function inode_name(value)
  return string.sub(value, NAME + 5, NAME + 4 + u32(value, NAME))
end

-- the value with another primary link, parent a decimal string
local function with_primary(value, parent, name)
  local rest = NAME + 5 + u32(value, NAME)
  return string.sub(value, 1, PARENT) .. u64_bytes(parent) .. string.sub(value, PARENT + 9, NAME)
    .. u32_bytes(#name) .. name .. string.sub(value, rest)
end

-- nil if ino is a directory; otherwise the failure to return
local function not_directory(ino)
  local type = redis.call('GETRANGE', inode_key(ino), TYPE, TYPE)
  if type == '' then
    return failure('ENOENT', 'inode ' .. ino)
  end
  if type ~= 'd' then
    return failure('ENOTDIR', 'inode ' .. ino)
  end
  return nil
end

local function entry_type(entry)
  return string.sub(entry, 1, 1)
end

local function entry_ino(entry)
  return string.sub(entry, 2)
end

local function add_entry(dir, name, entry)
  redis.call('HSET', entries_key(dir), name, entry)
  redis.call('ZADD', names_key(dir), 0, name)
end

local function remove_entry(dir, name)
  redis.call('HDEL', entries_key(dir), name)
  redis.call('ZREM', names_key(dir), name)
end

-- a directory's entries changed: mtime and ctime (next to each other) become now (8 bytes)
local function touch(dir, now)
  redis.call('SETRANGE', inode_key(dir), MTIME, now .. now)
end

-- a directory's nlink goes up or down by one (a subdirectory came or went)
local function add_nlink(dir, delta)
  local key = inode_key(dir)
  local nlink = u32(redis.call('GETRANGE', key, NLINK, NLINK + 3), 0)
  redis.call('SETRANGE', key, NLINK, u32_bytes(nlink + delta))
end

-- sign '' or '-'; size a decimal string
local function add_bytes(sign, size)
  if size ~= '0' then
    redis.call('HINCRBY', COUNTERS, 'used_bytes', sign .. size)
  end
end

-- a new inode with the given packed value, named name in parent; counted
local function add_inode(parent, name, ino, type, size, packed)
  redis.call('SET', inode_key(ino), packed)
  add_entry(parent, name, type .. ino)
  if type == 'd' then
    add_nlink(parent, 1)
  end
  redis.call('HINCRBY', COUNTERS, 'inodes', 1)
  if type == 'f' then
    add_bytes('', size)
  end
end

-- removes the name of a non-directory: {was_primary '1'/'0', deleted '1'/'0', packed inode}
local function remove_link(parent, name, ino, now)
  remove_entry(parent, name)
  local key = inode_key(ino)
  local value = redis.call('GET', key)
  if not value then
    error({err = 'corrupt metastore: ' .. describe(parent, name) .. ' names inode ' .. ino .. ', which is missing'})
  end
  local was_primary = (field(value, PARENT, 8) == u64_bytes(parent) and inode_name(value) == name) and '1' or '0'
  local nlink = u32(value, NLINK)
  if nlink <= 1 then
    redis.call('DEL', key, xattrs_key(ino), links_key(ino))
    redis.call('HINCRBY', COUNTERS, 'inodes', -1)
    if inode_type(value) == 'f' then
      add_bytes('-', u64_decimal(field(value, SIZE, 8)))
    end
    return {was_primary, '1', value}
  end
  local links = links_key(ino)
  redis.call('ZREM', links, link_member(parent, name))
  value = splice(splice(value, NLINK, u32_bytes(nlink - 1)), CTIME, now)
  if was_primary == '1' then
    local first = redis.call('ZRANGE', links, 0, 0)[1]
    value = with_primary(value, member_parent(first), member_name(first))
  end
  redis.call('SET', key, value)
  if nlink == 2 then
    redis.call('DEL', links) -- one name left: it is the primary link
  end
  return {was_primary, '0', value}
end

-- removes an empty directory's name and inode (the caller adjusts the parent): its packed value
local function remove_directory(parent, name, ino)
  remove_entry(parent, name)
  local key = inode_key(ino)
  local value = redis.call('GET', key)
  redis.call('DEL', key, entries_key(ino), names_key(ino), xattrs_key(ino))
  redis.call('HINCRBY', COUNTERS, 'inodes', -1)
  return value
end
