-- ARGV: dir, then per entry: name, ino, type letter, size, field count n, n hash fields.
-- Adds the names not yet present; leaves the directory's times alone. Returns {'OK', added}.
local dir = ARGV[1]
local err = not_directory(dir)
if err then
  return err
end
local entries = entries_key(dir)
local added = 0
local i = 2
while i <= #ARGV do
  local name, ino, type, size, count = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4])
  if redis.call('HEXISTS', entries, name) == 0 then
    add_inode(dir, name, ino, type, size, {unpack(ARGV, i + 5, i + 4 + count)})
    added = added + 1
  end
  i = i + 5 + count
end
return {'OK', added}
