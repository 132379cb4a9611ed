-- ARGV: ino, parent, name, now (8 bytes). Returns {'OK', the inode's packed value}.
local ino, parent, name, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local key = inode_key(ino)
local value = redis.call('GET', key)
if not value then
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
local type = inode_type(value)
if type == 'd' then
  return failure('EPERM', 'hard link to directory ' .. ino)
end
local links = links_key(ino)
local nlink = u32(value, NLINK)
if nlink == 1 then
  redis.call('ZADD', links, 0, link_member(u64_decimal(field(value, PARENT, 8)), inode_name(value)))
end
redis.call('ZADD', links, 0, link_member(parent, name))
add_entry(parent, name, type .. ino)
value = splice(splice(value, NLINK, u32_bytes(nlink + 1)), CTIME, now)
redis.call('SET', key, value)
touch(parent, now)
return {'OK', value}
