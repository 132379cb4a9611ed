-- fsck's repair. ARGV: ino, parent, name. Makes (parent, name) the inode's primary link.
-- Returns {'OK'}.
local key = inode_key(ARGV[1])
local value = redis.call('GET', key)
if not value then
  return failure('ENOENT', 'inode ' .. ARGV[1])
end
redis.call('SET', key, with_primary(value, ARGV[2], ARGV[3]))
return {'OK'}
