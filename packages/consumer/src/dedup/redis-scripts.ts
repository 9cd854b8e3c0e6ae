/*
 * Lua scripts of the Redis dedup store. Each handles a whole batch (one round trip for N keys) and
 * is atomic, so claims cannot interleave. Values of a delivery key:
 *   `p|{leaseExpiresAtMs}|{owner}`  processing, owned by `owner` until the expiry
 *   `d|{retainedUntilMs}`           processed
 * Both expiries are compared with the `now` the caller passes (the consumer's injected clock), not
 * Redis' own TTL: a key's PX is only garbage collection. It is set once, at the claim, to the
 * retention plus the lease (and re-armed by renewals), so marking processed does not touch it.
 * Positions are hashes `{prefix}:{stream}:pos` with fields `m` (messages) and `c` (changes).
 */

/*
 * Position arguments: one per delivery, the lane letter followed by the ordinal (`m12`, `c8`), or
 * `-` without ordering, all joined with commas into ONE argument per batch (`m12,-,c8,`: each
 * followed by a comma). Keys stay declared one by one (KEYS), as Redis Cluster requires; the
 * positions are no keys, and one argument instead of one per delivery saves the client about a
 * tenth of its work per delivery (ioredis flattens, measures and frames every argument).
 */

/**
 * KEYS: pairs (delivery key, position key). ARGV: now, owner, leaseExpiresAt, keyTtlMs, the
 * positions (one per pair, joined). Replies one integer per pair (cheaper to send and parse than
 * strings): 0 claimed, -1 processed, n > 0 busy for n ms;
 * a delivery claimed at or behind its stream's stored position (late) gets the stored position as
 * it is stored (a string): folded into one Lua number (`-2 - p`, a double), a position near 2^53
 * came back wrong, unlike the memory store's. Late replies are rare: the reply stays one small
 * integer per delivery otherwise.
 * Every delivery is claimed on its key alone, whatever its position (a late one is handed to its
 * handler, never skipped): `SET NX GET` claims and reads in one call. A stream's position is read
 * once per batch, and only for claimed deliveries (several of a resource often travel together).
 */
export const CLAIM_SCRIPT = `
local now = tonumber(ARGV[1])
local lease = 'p|' .. ARGV[3] .. '|' .. ARGV[2]
local keyTtl = ARGV[4]
local positions = ARGV[5]
local from = 1
local storedAt = {}
local storedText = {}
local results = {}
for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  local comma = string.find(positions, ',', from, true)
  local position = string.sub(positions, from, comma - 1)
  from = comma + 1
  local current = redis.call('SET', key, lease, 'NX', 'GET', 'PX', keyTtl)
  local result = 0
  if current and string.byte(current, 1) == 100 and tonumber(string.sub(current, 3)) > now then
    result = -1
  elseif current then
    local left = 0
    if string.byte(current, 1) == 112 then
      local separator = string.find(current, '|', 3, true)
      left = tonumber(string.sub(current, 3, separator - 1)) - now
    end
    if left > 0 then
      result = left
    else
      redis.call('SET', key, lease, 'PX', keyTtl)
    end
  end
  if result == 0 and string.byte(position, 1) ~= 45 then
    local lane = string.sub(position, 1, 1)
    local slot = KEYS[2 * i] .. lane
    local stored = storedAt[slot]
    if stored == nil then
      local text = redis.call('HGET', KEYS[2 * i], lane)
      stored = tonumber(text) or false
      storedAt[slot] = stored
      storedText[slot] = text
    end
    if stored and tonumber(string.sub(position, 2)) <= stored then result = storedText[slot] end
  end
  results[i] = result
end
return results
`;

/**
 * KEYS: delivery keys. ARGV: owner, leaseExpiresAt, keyTtlMs. Returns 1 per key still owned (and
 * renewed, its TTL re-armed so the processed mark outlives the retention), else 0.
 */
export const RENEW_SCRIPT = `
local lease = 'p|' .. ARGV[2] .. '|' .. ARGV[1]
local results = {}
for i = 1, #KEYS do
  local current = redis.call('GET', KEYS[i])
  local renewed = 0
  if current and string.sub(current, 1, 2) == 'p|' then
    local separator = string.find(current, '|', 3, true)
    if string.sub(current, separator + 1) == ARGV[1] then
      redis.call('SET', KEYS[i], lease, 'PX', ARGV[3])
      renewed = 1
    end
  end
  results[i] = renewed
end
return results
`;

/** KEYS: delivery keys. ARGV: owner. Compare-and-delete: only leases the owner still holds. */
export const RELEASE_SCRIPT = `
local released = 0
for i = 1, #KEYS do
  local current = redis.call('GET', KEYS[i])
  if current and string.sub(current, 1, 2) == 'p|' then
    local separator = string.find(current, '|', 3, true)
    if string.sub(current, separator + 1) == ARGV[1] then
      redis.call('DEL', KEYS[i])
      released = released + 1
    end
  end
end
return released
`;

/**
 * KEYS: pairs (delivery key, position key). ARGV: retainedUntil, keyTtlMs, the positions (one per
 * pair, joined), each lane letter in upper case (`M12`) when the position's TTL is to be
 * re-armed. Marks processed whoever holds the lease (the work is done) and raises positions, never
 * lowers them. The claim already gave the key its full TTL, so the mark keeps it (`XX KEEPTTL`, a
 * third cheaper than re-arming); a key that is gone (completed without a claim, fail-open) gets one
 * here. A position costs a read and a write: the caller decides when its TTL is re-armed (reading
 * the TTL on every completion cost redis-server a third more than the raise itself), and a lane
 * with no stored position arms it anyway, so a position key (re)created here always has a TTL.
 */
export const COMPLETE_SCRIPT = `
local processed = 'd|' .. ARGV[1]
local keyTtl = ARGV[2]
local positions = ARGV[3]
local from = 1
for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  if not redis.call('SET', key, processed, 'XX', 'KEEPTTL') then
    redis.call('SET', key, processed, 'PX', keyTtl)
  end
  local comma = string.find(positions, ',', from, true)
  local position = string.sub(positions, from, comma - 1)
  from = comma + 1
  local letter = string.byte(position, 1)
  if letter ~= 45 then
    local positionKey = KEYS[2 * i]
    local arm = letter < 97
    local lane = arm and string.char(letter + 32) or string.char(letter)
    local text = string.sub(position, 2)
    local stored = redis.call('HGET', positionKey, lane)
    if (not stored) or tonumber(text) > tonumber(stored) then
      redis.call('HSET', positionKey, lane, text)
    end
    if arm or not stored then
      redis.call('PEXPIRE', positionKey, keyTtl)
    end
  end
end
return #KEYS / 2
`;

/** KEYS: position keys. Replies the `m` and `c` fields of each, flat (false when absent). */
export const READ_POSITIONS_SCRIPT = `
local results = {}
for i = 1, #KEYS do
  local fields = redis.call('HMGET', KEYS[i], 'm', 'c')
  results[2 * i - 1] = fields[1]
  results[2 * i] = fields[2]
end
return results
`;
