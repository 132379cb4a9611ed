-- ARGV: ino, name. Returns {'OK'}. The inode's flag goes with its last xattr.
local ino, name = ARGV[1], ARGV[2]
local key = inode_key(ino)
local flags = redis.call('GETRANGE', key, FLAGS, FLAGS)
if flags == '' then
  return failure('ENOENT', 'inode ' .. ino)
end
if redis.call('HDEL', xattrs_key(ino), name) == 0 then
  return failure('ENODATA', 'xattr ' .. name .. ' of inode ' .. ino)
end
if redis.call('EXISTS', xattrs_key(ino)) == 0 then
  redis.call('SETRANGE', key, FLAGS, string.char(bit.band(string.byte(flags), bit.bnot(HAS_XATTRS))))
end
return {'OK'}
