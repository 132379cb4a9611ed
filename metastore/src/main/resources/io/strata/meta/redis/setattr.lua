-- ARGV: ino, mode, uid, gid, size, atime, mtime (each '-' to keep, or '+' and the new value packed:
-- 4 bytes for mode, uid, gid, 8 for the others), ufs ('-' or '+' and the version), ctime (8 bytes).
-- Keeps used_bytes in step with a file's size. Returns {'OK', the inode's packed value}.
local ino = ARGV[1]
local key = inode_key(ino)
local value = redis.call('GET', key)
if not value then
  return failure('ENOENT', 'inode ' .. ino)
end
local old_size = field(value, SIZE, 8)
for i, offset in ipairs({MODE, UID, GID, SIZE, ATIME, MTIME}) do
  local change = ARGV[i + 1]
  if change ~= '-' then
    value = splice(value, offset, string.sub(change, 2))
  end
end
value = splice(value, CTIME, ARGV[9])
if ARGV[8] ~= '-' then
  local ufs = string.sub(ARGV[8], 2)
  local at = NAME + 4 + u32(value, NAME) -- the version's length
  local rest = at + 4 + u32(value, at) -- the symlink target
  value = string.sub(value, 1, FLAGS) .. string.char(bit.bor(string.byte(value, FLAGS + 1), HAS_UFS))
    .. string.sub(value, FLAGS + 2, at) .. u32_bytes(#ufs) .. ufs .. string.sub(value, rest + 1)
end
redis.call('SET', key, value)
if ARGV[5] ~= '-' and inode_type(value) == 'f' then
  local size = field(value, SIZE, 8)
  if size ~= old_size then
    add_bytes('-', u64_decimal(old_size))
    add_bytes('', u64_decimal(size))
  end
end
return {'OK', value}
