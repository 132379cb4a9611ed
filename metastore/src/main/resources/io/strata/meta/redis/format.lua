-- ARGV: format version, Redis schema version, the root inode's packed value.
-- Formats an empty database as a volume; returns {'OK', stored format version or '', stored
-- schema or ''}.
if redis.call('EXISTS', SETTINGS) == 1 then
  return {'OK', redis.call('HGET', SETTINGS, 'format_version') or '', redis.call('GET', SCHEMA_KEY) or ''}
end
if redis.call('DBSIZE') > 0 then
  return failure('FOREIGN', "is not a Strata metastore: the database holds keys but no 'setting' hash")
end
redis.call('HSET', SETTINGS, 'format_version', ARGV[1])
redis.call('SET', SCHEMA_KEY, ARGV[2])
redis.call('HSET', COUNTERS, 'next_inode', ROOT, 'inodes', 1, 'used_bytes', 0)
redis.call('SET', inode_key(ROOT), ARGV[3])
return {'OK', ARGV[1], ARGV[2]}
