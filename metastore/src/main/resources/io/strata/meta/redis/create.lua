-- ARGV: parent, name, ino, type letter, size (decimal), now (8 bytes), the new inode's packed value.
local parent, name, ino, type, size, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local err = not_directory(parent)
if err then
  return err
end
if redis.call('HEXISTS', entries_key(parent), name) == 1 then
  return failure('EEXIST', describe(parent, name))
end
add_inode(parent, name, ino, type, size, ARGV[7])
touch(parent, now)
return {'OK'}
