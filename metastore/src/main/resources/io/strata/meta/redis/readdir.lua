-- ARGV: dir, ZRANGEBYLEX minimum ('-' from the first, '(' .. name after a name), limit.
-- Returns {'OK', name, entry, name, entry...}: one page in byte order, read with the check.
local dir = ARGV[1]
local err = not_directory(dir)
if err then
  return err
end
local names = redis.call('ZRANGEBYLEX', names_key(dir), ARGV[2], '+', 'LIMIT', 0, ARGV[3])
local entries = entries_key(dir)
local page = {'OK'}
for _, name in ipairs(names) do
  page[#page + 1] = name
  page[#page + 1] = redis.call('HGET', entries, name) or ''
end
return page
