/*
 * Lua scripts of the Redis dedup store. Each handles a whole batch (one round trip for N keys) and
 * is atomic, so claims cannot interleave. Values of a delivery key:
 *   `p|{leaseExpiresAtMs}|{owner}`  processing, owned by `owner` until the expiry
 *   `d|{retainedUntilMs}`           processed
 * Both expiries are compared with the `now` the caller passes (the consumer's injected clock), not
 * Redis' own TTL: a key's PX is only garbage collection, set a little past its logical expiry.
 * Positions are hashes `{prefix}:{stream}:pos` with fields `m` (messages) and `c` (changes).
 */

/*
 * A position argument is the lane letter followed by the ordinal (`m12`, `c8`), or `-` without
 * ordering: one argument per delivery instead of two (each argument costs the client about half a
 * microsecond to encode).
 */

/**
 * KEYS: pairs (delivery key, position key). ARGV: now, owner, leaseExpiresAt, keyTtlMs, then one
 * position argument per pair. Replies one integer per pair (cheaper to send and parse than strings):
 *   0 claimed, -1 processed, n > 0 busy for n ms, -2 - p stale behind stored position p.
 */
export const CLAIM_SCRIPT = `
local now = tonumber(ARGV[1])
local lease = 'p|' .. ARGV[3] .. '|' .. ARGV[2]
local results = {}
for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  local position = ARGV[4 + i]
  local lane = string.sub(position, 1, 1)
  local current = redis.call('GET', key)
  local result
  if current and string.sub(current, 1, 2) == 'd|' and tonumber(string.sub(current, 3)) <= now then
    current = false
  end
  if current and string.sub(current, 1, 2) == 'd|' then
    result = -1
  else
    local stored = false
    if lane ~= '-' then stored = redis.call('HGET', KEYS[2 * i], lane) end
    if stored and tonumber(string.sub(position, 2)) <= tonumber(stored) then
      result = -2 - tonumber(stored)
    else
      local left = 0
      if current then
        local separator = string.find(current, '|', 3, true)
        left = tonumber(string.sub(current, 3, separator - 1)) - now
      end
      if left > 0 then
        result = left
      else
        redis.call('SET', key, lease, 'PX', ARGV[4])
        result = 0
      end
    end
  end
  results[i] = result
end
return results
`;

/** KEYS: delivery keys. ARGV: owner, leaseExpiresAt, keyTtlMs. Returns 1 per key still owned (and renewed), else 0. */
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
 * KEYS: pairs (delivery key, position key). ARGV: retainedUntil, keyTtlMs, refreshBelowMs, then one
 * position argument per pair. Marks processed whoever holds the lease (the work is done) and raises the
 * position, never lowers it. A position's TTL is re-armed only once it fell below `refreshBelowMs`
 * (PEXPIRE on every completion was a third of the script's cost).
 */
export const COMPLETE_SCRIPT = `
local processed = 'd|' .. ARGV[1]
local refreshBelow = tonumber(ARGV[3])
for i = 1, #KEYS / 2 do
  redis.call('SET', KEYS[2 * i - 1], processed, 'PX', ARGV[2])
  local position = ARGV[3 + i]
  local lane = string.sub(position, 1, 1)
  if lane ~= '-' then
    local positionKey = KEYS[2 * i]
    local ordinal = string.sub(position, 2)
    local stored = redis.call('HGET', positionKey, lane)
    if (not stored) or tonumber(ordinal) > tonumber(stored) then
      redis.call('HSET', positionKey, lane, ordinal)
    end
    if (not stored) or redis.call('PTTL', positionKey) < refreshBelow then
      redis.call('PEXPIRE', positionKey, ARGV[2])
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
