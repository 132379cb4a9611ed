-- ARGV: ino, mode, uid, gid, size, atime, mtime, ufs (each '-' to keep, or '+' and the new value),
-- ctime. Keeps used_bytes in step with a file's size. Returns {'OK', HGETALL of the inode}.
local ino = ARGV[1]
local key = inode_key(ino)
local current = redis.call('HMGET', key, 'type', 'size')
if not current[1] then
  return failure('ENOENT', 'inode ' .. ino)
end
local fields = {'mode', 'uid', 'gid', 'size', 'atime', 'mtime', 'ufs'}
for i, field in ipairs(fields) do
  local change = ARGV[i + 1]
  if change ~= '-' then
    redis.call('HSET', key, field, string.sub(change, 2))
  end
end
redis.call('HSET', key, 'ctime', ARGV[9])
if ARGV[5] ~= '-' and current[1] == 'f' then
  local size = string.sub(ARGV[5], 2)
  if size ~= current[2] then
    add_bytes('-', current[2])
    add_bytes('', size)
  end
end
return {'OK', redis.call('HGETALL', key)}
