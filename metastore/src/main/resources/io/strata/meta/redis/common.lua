-- Shared by every script of the Redis metastore; RedisKeys.luaPrelude() comes before it. A script
-- returns {'OK', ...} or {ERROR, message}, ERROR being an errno name (ENOENT...) or CORRUPT.
-- Inode numbers, times and sizes stay strings: Lua numbers are doubles.

local function failure(code, message)
  return {code, message}
end

local function describe(parent, name)
  return "'" .. name .. "' in directory " .. parent
end

-- nil if ino is a directory; otherwise the failure to return
local function not_directory(ino)
  local type = redis.call('HGET', inode_key(ino), 'type')
  if not type then
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

-- a directory's entries changed: mtime and ctime become now
local function touch(dir, now)
  redis.call('HSET', inode_key(dir), 'mtime', now, 'ctime', now)
end

-- sign '' or '-'; size a decimal string
local function add_bytes(sign, size)
  if size ~= '0' then
    redis.call('HINCRBY', COUNTERS, 'used_bytes', sign .. size)
  end
end

-- a new inode with the given hash fields, named name in parent; counted
local function add_inode(parent, name, ino, type, size, fields)
  redis.call('HSET', inode_key(ino), unpack(fields))
  add_entry(parent, name, type .. ino)
  if type == 'd' then
    redis.call('HINCRBY', inode_key(parent), 'nlink', 1)
  end
  redis.call('HINCRBY', COUNTERS, 'inodes', 1)
  if type == 'f' then
    add_bytes('', size)
  end
end

-- removes the name of a non-directory: {was_primary '1'/'0', deleted '1'/'0', HGETALL of the inode}
local function remove_link(parent, name, ino, now)
  remove_entry(parent, name)
  local key = inode_key(ino)
  local current = redis.call('HMGET', key, 'parent', 'name', 'nlink', 'type', 'size')
  local was_primary = (current[1] == parent and current[2] == name) and '1' or '0'
  local nlink = tonumber(current[3])
  if nlink <= 1 then
    local fields = redis.call('HGETALL', key)
    redis.call('DEL', key, xattrs_key(ino), links_key(ino))
    redis.call('HINCRBY', COUNTERS, 'inodes', -1)
    if current[4] == 'f' then
      add_bytes('-', current[5])
    end
    return {was_primary, '1', fields}
  end
  local links = links_key(ino)
  redis.call('ZREM', links, link_member(parent, name))
  redis.call('HINCRBY', key, 'nlink', -1)
  redis.call('HSET', key, 'ctime', now)
  if was_primary == '1' then
    local first = redis.call('ZRANGE', links, 0, 0)[1]
    redis.call('HSET', key, 'parent', member_parent(first), 'name', member_name(first))
  end
  if nlink == 2 then
    redis.call('DEL', links) -- one name left: it is the primary link
  end
  return {was_primary, '0', redis.call('HGETALL', key)}
end

-- removes an empty directory's name and inode (the caller adjusts the parent): its HGETALL
local function remove_directory(parent, name, ino)
  remove_entry(parent, name)
  local key = inode_key(ino)
  local fields = redis.call('HGETALL', key)
  redis.call('DEL', key, entries_key(ino), names_key(ino), xattrs_key(ino))
  redis.call('HINCRBY', COUNTERS, 'inodes', -1)
  return fields
end

