-- ARGV: dir, synced ns (8 bytes). Returns {'OK'}.
local err = not_directory(ARGV[1])
if err then
  return err
end
redis.call('SETRANGE', inode_key(ARGV[1]), SYNCED, ARGV[2])
return {'OK'}
