-- ARGV: ino, name. Returns {'OK'}.
local ino, name = ARGV[1], ARGV[2]
if redis.call('EXISTS', inode_key(ino)) == 0 then
  return failure('ENOENT', 'inode ' .. ino)
end
if redis.call('HDEL', xattrs_key(ino), name) == 0 then
  return failure('ENODATA', 'xattr ' .. name .. ' of inode ' .. ino)
end
return {'OK'}
