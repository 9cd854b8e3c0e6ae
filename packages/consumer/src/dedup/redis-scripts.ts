/*
 * Lua scripts of the Redis dedup store. Each handles a whole batch (one round trip for N keys) and
 * is atomic, so claims cannot interleave. Values of a delivery key:
 *   `p|{leaseExpiresAtMs}|{owner}`  processing, owned by `owner` until the expiry
 *   `d|{retainedUntilMs}`           processed
 * Both expiries are compared with the `now` the caller passes (the consumer's injected clock), not
 * Redis' own TTL: a key's PX is only garbage collection. It is set once, at the claim, to the
 * retention plus the lease (and re-armed by renewals), so marking processed does not touch it.
 * Positions: see below (key layout 2).
 */

/*
 * Positions, key layout 2: one plain string key per resource lane, `{prefix}:{stream}:pos:m`
 * (messages) and `…:pos:c` (changes), holding the lane's last processed ordinal. Layout 1 kept
 * both lanes in a hash `{prefix}:{stream}:pos` (`HGET` in claims; `HGET` + `HSET` + `PEXPIRE` in
 * completions): on a stream of mostly new resources (a type-filtered subscription) creating and
 * expiring a hash per resource was most of what ordering cost redis-server. A string is written
 * with its TTL in one `SET … PX` and read with one `GET`. Layout-1 hashes are still read by
 * READ_POSITIONS_SCRIPT (see the README's *Upgrading*), never written.
 *
 * Ordinal arguments: one per delivery, the ordinal of its lane (`12`), or `-` without ordering,
 * all joined with commas into ONE argument per batch (`12,-,8,`: each followed by a comma). Keys
 * stay declared one by one (KEYS), as Redis Cluster requires; the ordinals are no keys, and one
 * argument instead of one per delivery saves the client about a tenth of its work per delivery
 * (ioredis flattens, measures and frames every argument).
 */

/**
 * KEYS: pairs (delivery key, its lane's position key). ARGV: now, owner, leaseExpiresAt,
 * keyTtlMs, the ordinals (one per pair, joined). Replies one integer per pair (cheaper to send and
 * parse than strings): 0 claimed, -2 claimed right after its lane's stored position (it is
 * `ordinal − 1`, exact below 2^53: see ClaimResult), -1 processed, n > 0 busy for n ms;
 * a delivery claimed at or behind its lane's stored position (late) gets the stored position as
 * it is stored (a string): folded into one Lua number (`-2 - p`, a double), a position near 2^53
 * came back wrong, unlike the memory store's. Late replies are rare: the reply stays one small
 * integer per delivery otherwise.
 * Every delivery is claimed on its key alone, whatever its position (a late one is handed to its
 * handler, never skipped): `SET NX GET` claims and reads in one call. The batch's positions are
 * read first, in ONE `MGET` of its distinct position keys: a command per key cost redis-server
 * more than the read itself (a stream of new resources has about one lane per delivery).
 */
export const CLAIM_SCRIPT = `
local now = tonumber(ARGV[1])
local lease = 'p|' .. ARGV[3] .. '|' .. ARGV[2]
local keyTtl = ARGV[4]
local ordinals = ARGV[5]
local count = #KEYS / 2
local ordinalAt = {}
local positionKeys = {}
local slotOf = {}
local from = 1
for i = 1, count do
  local comma = string.find(ordinals, ',', from, true)
  local ordinal = string.sub(ordinals, from, comma - 1)
  from = comma + 1
  ordinalAt[i] = ordinal
  if ordinal ~= '-' then
    local positionKey = KEYS[2 * i]
    if slotOf[positionKey] == nil then
      positionKeys[#positionKeys + 1] = positionKey
      slotOf[positionKey] = #positionKeys
    end
  end
end
local stored = {}
if #positionKeys > 0 then stored = redis.call('MGET', unpack(positionKeys)) end
local results = {}
for i = 1, count do
  local key = KEYS[2 * i - 1]
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
  local ordinal = ordinalAt[i]
  if result == 0 and ordinal ~= '-' then
    local text = stored[slotOf[KEYS[2 * i]]]
    if text then
      local value = tonumber(ordinal)
      local storedValue = tonumber(text)
      if value <= storedValue then
        result = text
      elseif storedValue == value - 1 and value <= 9007199254740991 then
        result = -2
      end
    end
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
 * KEYS: pairs (delivery key, its lane's position key). ARGV: retainedUntil, keyTtlMs, the ordinals
 * (one per pair, joined). Marks processed whoever holds the lease (the work is done) and raises
 * positions, never lowers them. The claim already gave the key its full TTL, so the mark keeps it
 * (`XX KEEPTTL`, a third cheaper than re-arming); a key that is gone (completed without a claim,
 * fail-open) gets one here. Each position key of the batch is written once, with its highest
 * ordinal and a fresh TTL (`SET PX GET`: a position outlives its lane's last completion like the
 * processed keys it orders); in the rare case that the value it replaced was higher (a late
 * delivery's completion) that value is put back.
 */
export const COMPLETE_SCRIPT = `
local processed = 'd|' .. ARGV[1]
local keyTtl = ARGV[2]
local ordinals = ARGV[3]
local from = 1
local positionKeys = {}
local highest = {}
local highestText = {}
for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  if not redis.call('SET', key, processed, 'XX', 'KEEPTTL') then
    redis.call('SET', key, processed, 'PX', keyTtl)
  end
  local comma = string.find(ordinals, ',', from, true)
  local ordinal = string.sub(ordinals, from, comma - 1)
  from = comma + 1
  if ordinal ~= '-' then
    local positionKey = KEYS[2 * i]
    local value = tonumber(ordinal)
    local seen = highest[positionKey]
    if seen == nil then positionKeys[#positionKeys + 1] = positionKey end
    if seen == nil or value > seen then
      highest[positionKey] = value
      highestText[positionKey] = ordinal
    end
  end
end
for _, positionKey in ipairs(positionKeys) do
  local previous = redis.call('SET', positionKey, highestText[positionKey], 'PX', keyTtl, 'GET')
  if previous and tonumber(previous) > highest[positionKey] then
    redis.call('SET', positionKey, previous, 'PX', keyTtl)
  end
end
return #KEYS / 2
`;

/**
 * KEYS: triples per stream (its `m` position key, its `c` position key, its layout-1 hash). Replies
 * the `m` and `c` positions of each, flat (false when absent): the higher of the two layouts', so
 * that positions stored before an upgrade are not forgotten (see the README's *Upgrading*).
 */
export const READ_POSITIONS_SCRIPT = `
local results = {}
for i = 1, #KEYS / 3 do
  local current = redis.call('MGET', KEYS[3 * i - 2], KEYS[3 * i - 1])
  local legacy = redis.call('HMGET', KEYS[3 * i], 'm', 'c')
  for lane = 1, 2 do
    local position = current[lane]
    local old = legacy[lane]
    if old and ((not position) or tonumber(old) > tonumber(position)) then position = old end
    results[2 * i - 2 + lane] = position
  end
end
return results
`;
