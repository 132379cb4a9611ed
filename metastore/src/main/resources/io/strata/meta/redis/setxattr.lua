-- ARGV: ino, name, value, mode (u upsert, c create, r replace). Returns {'OK'}. Sets the inode's
-- flag that it has xattrs.
local ino, name, value, mode = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local key = inode_key(ino)
local flags = redis.call('GETRANGE', key, FLAGS, FLAGS)
if flags == '' then
  return failure('ENOENT', 'inode ' .. ino)
end
if mode ~= 'u' then
  local present = redis.call('HEXISTS', xattrs_key(ino), name) == 1
  if mode == 'c' and present then
    return failure('EEXIST', 'xattr ' .. name .. ' of inode ' .. ino)
  end
  if mode == 'r' and not present then
    return failure('ENODATA', 'xattr ' .. name .. ' of inode ' .. ino)
  end
end
redis.call('HSET', xattrs_key(ino), name, value)
redis.call('SETRANGE', key, FLAGS, string.char(bit.bor(string.byte(flags), HAS_XATTRS)))
return {'OK'}
