-- ARGV: source parent, source name, target parent, target name, now, maximum depth.
-- Returns {'OK', moved ino, was_primary, HGETALL of the moved inode, replaced}, replaced being {}
-- or {replaced ino, was_primary, deleted, HGETALL of the replaced inode}.
local sp, sn, dp, dn, now, max_depth = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6])
local err = not_directory(sp) or not_directory(dp)
if err then
  return err
end
local source = redis.call('HGET', entries_key(sp), sn)
if not source then
  return failure('ENOENT', describe(sp, sn))
end
local stype, sino = entry_type(source), entry_ino(source)
local skey = inode_key(sino)
local target = redis.call('HGET', entries_key(dp), dn)
if target and entry_ino(target) == sino then
  -- two names of one inode (or the same name): rename(2) does nothing
  return {'OK', sino, '0', redis.call('HGETALL', skey), {}}
end
if stype == 'd' and sp ~= dp then
  -- refuse a move into the own subtree: walk up from the target parent
  local current = dp
  local depth = 0
  while current ~= ROOT do
    if current == sino then
      return failure('EINVAL', 'cannot move directory ' .. sino .. ' into its own subtree')
    end
    depth = depth + 1
    current = redis.call('HGET', inode_key(current), 'parent')
    if not current or depth > max_depth then
      return failure('CORRUPT', 'directory ' .. dp .. ' has no path to the root')
    end
  end
end
local replaced = {}
if target then
  local ttype, tino = entry_type(target), entry_ino(target)
  if stype == 'd' and ttype ~= 'd' then
    return failure('ENOTDIR', 'cannot replace non-directory ' .. describe(dp, dn) .. ' with a directory')
  end
  if stype ~= 'd' and ttype == 'd' then
    return failure('EISDIR', 'cannot replace directory ' .. describe(dp, dn) .. ' with a non-directory')
  end
  if ttype == 'd' then
    if redis.call('HLEN', entries_key(tino)) > 0 then
      return failure('ENOTEMPTY', describe(dp, dn))
    end
    replaced = {tino, '1', '1', remove_directory(dp, dn, tino)}
    redis.call('HINCRBY', inode_key(dp), 'nlink', -1)
  else
    local removed = remove_link(dp, dn, tino, now)
    replaced = {tino, removed[1], removed[2], removed[3]}
  end
end
remove_entry(sp, sn)
add_entry(dp, dn, source)
local primary = redis.call('HMGET', skey, 'parent', 'name')
local was_primary = (primary[1] == sp and primary[2] == sn) and '1' or '0'
if was_primary == '1' then
  redis.call('HSET', skey, 'parent', dp, 'name', dn)
end
if stype ~= 'd' then
  local links = links_key(sino)
  if redis.call('ZREM', links, link_member(sp, sn)) == 1 then
    redis.call('ZADD', links, 0, link_member(dp, dn))
  end
elseif sp ~= dp then
  redis.call('HINCRBY', inode_key(sp), 'nlink', -1)
  redis.call('HINCRBY', inode_key(dp), 'nlink', 1)
end
redis.call('HSET', skey, 'ctime', now)
touch(sp, now)
touch(dp, now)
return {'OK', sino, was_primary, redis.call('HGETALL', skey), replaced}
