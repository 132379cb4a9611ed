-- ARGV: ino, parent, name, now. Returns {'OK', HGETALL of the inode}.
local ino, parent, name, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local key = inode_key(ino)
local current = redis.call('HMGET', key, 'type', 'nlink', 'parent', 'name')
if not current[1] then
  return failure('ENOENT', 'inode ' .. ino)
end
local err = not_directory(parent)
if err then
  return err
end
-- link(2) reports a taken name before looking at what the source is
if redis.call('HEXISTS', entries_key(parent), name) == 1 then
  return failure('EEXIST', describe(parent, name))
end
if current[1] == 'd' then
  return failure('EPERM', 'hard link to directory ' .. ino)
end
local links = links_key(ino)
if tonumber(current[2]) == 1 then
  redis.call('ZADD', links, 0, link_member(current[3], current[4]))
end
redis.call('ZADD', links, 0, link_member(parent, name))
add_entry(parent, name, current[1] .. ino)
redis.call('HINCRBY', key, 'nlink', 1)
redis.call('HSET', key, 'ctime', now)
touch(parent, now)
return {'OK', redis.call('HGETALL', key)}
