-- ARGV: dir, synced ns. Returns {'OK'}.
local err = not_directory(ARGV[1])
if err then
  return err
end
redis.call('HSET', inode_key(ARGV[1]), 'synced', ARGV[2])
return {'OK'}
