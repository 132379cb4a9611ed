-- ARGV: format version, then the root inode's hash fields.
-- Formats an empty database as a volume; returns {'OK', stored format version or ''}.
if redis.call('EXISTS', SETTINGS) == 1 then
  return {'OK', redis.call('HGET', SETTINGS, 'format_version') or ''}
end
if redis.call('DBSIZE') > 0 then
  return failure('FOREIGN', "is not a Strata metastore: the database holds keys but no 'setting' hash")
end
redis.call('HSET', SETTINGS, 'format_version', ARGV[1])
redis.call('HSET', COUNTERS, 'next_inode', ROOT, 'inodes', 1, 'used_bytes', 0)
redis.call('HSET', inode_key(ROOT), unpack(ARGV, 2))
return {'OK', ARGV[1]}
