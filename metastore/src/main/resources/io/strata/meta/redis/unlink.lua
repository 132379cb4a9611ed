-- ARGV: parent, name, now (8 bytes). Returns {'OK', ino, was_primary, deleted, packed inode}.
local parent, name, now = ARGV[1], ARGV[2], ARGV[3]
local err = not_directory(parent)
if err then
  return err
end
local entry = redis.call('HGET', entries_key(parent), name)
if not entry then
  return failure('ENOENT', describe(parent, name))
end
if entry_type(entry) == 'd' then
  return failure('EISDIR', describe(parent, name))
end
local removed = remove_link(parent, name, entry_ino(entry), now)
touch(parent, now)
return {'OK', entry_ino(entry), removed[1], removed[2], removed[3]}
