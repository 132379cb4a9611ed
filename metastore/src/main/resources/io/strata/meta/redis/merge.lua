-- ARGV: dir, then per entry: name, ino, type letter, size (decimal), packed value.
-- Adds the names not yet present; leaves the directory's times alone. Returns {'OK', added}.
local dir = ARGV[1]
local err = not_directory(dir)
if err then
  return err
end
local entries = entries_key(dir)
local added = 0
for i = 2, #ARGV, 5 do
  local name = ARGV[i]
  if redis.call('HEXISTS', entries, name) == 0 then
    add_inode(dir, name, ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4])
    added = added + 1
  end
end
return {'OK', added}
