-- ARGV: ino, name, value, mode (u upsert, c create, r replace). Returns {'OK'}.
local ino, name, value, mode = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', inode_key(ino)) == 0 then
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
return {'OK'}
