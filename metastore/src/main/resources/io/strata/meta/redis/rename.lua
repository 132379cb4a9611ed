-- ARGV: source parent, source name, target parent, target name, now (8 bytes), maximum depth.
-- Returns {'OK', moved ino, was_primary, packed moved inode, replaced}, replaced being {} or
-- {replaced ino, was_primary, deleted, packed replaced inode}.
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
  return {'OK', sino, '0', redis.call('GET', skey), {}}
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
    local parent = redis.call('GETRANGE', inode_key(current), PARENT, PARENT + 7)
    if #parent ~= 8 or depth > max_depth then
      return failure('CORRUPT', 'directory ' .. dp .. ' has no path to the root')
    end
    current = u64_decimal(parent)
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
    add_nlink(dp, -1)
  else
    local removed = remove_link(dp, dn, tino, now)
    replaced = {tino, removed[1], removed[2], removed[3]}
  end
end
local value = redis.call('GET', skey)
if not value then
  return failure('CORRUPT', describe(sp, sn) .. ' names inode ' .. sino .. ', which is missing')
end
remove_entry(sp, sn)
add_entry(dp, dn, source)
local was_primary = (field(value, PARENT, 8) == u64_bytes(sp) and inode_name(value) == sn) and '1' or '0'
if was_primary == '1' then
  value = with_primary(value, dp, dn)
end
if stype ~= 'd' then
  local links = links_key(sino)
  if redis.call('ZREM', links, link_member(sp, sn)) == 1 then
    redis.call('ZADD', links, 0, link_member(dp, dn))
  end
elseif sp ~= dp then
  add_nlink(sp, -1)
  add_nlink(dp, 1)
end
redis.call('SET', skey, splice(value, CTIME, now))
touch(sp, now)
touch(dp, now)
return {'OK', sino, was_primary, redis.call('GET', skey), replaced}
