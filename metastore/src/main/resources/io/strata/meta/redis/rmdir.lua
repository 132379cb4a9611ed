-- ARGV: parent, name, now (8 bytes). Returns {'OK', ino, the removed inode's packed value}.
local parent, name, now = ARGV[1], ARGV[2], ARGV[3]
local err = not_directory(parent)
if err then
  return err
end
local entry = redis.call('HGET', entries_key(parent), name)
if not entry then
  return failure('ENOENT', describe(parent, name))
end
if entry_type(entry) ~= 'd' then
  return failure('ENOTDIR', describe(parent, name))
end
local ino = entry_ino(entry)
if redis.call('HLEN', entries_key(ino)) > 0 then
  return failure('ENOTEMPTY', describe(parent, name))
end
local value = remove_directory(parent, name, ino)
add_nlink(parent, -1)
touch(parent, now)
return {'OK', ino, value}
