/**
 * The Lua scripts of the Redis session store. Each runs atomically on the server, in one round trip
 * (ioredis sends EVALSHA, and EVAL once when the server lost its script cache).
 *
 * Layout under the prefix P:
 * - `P session:<store key>`   hash: `p` principal id, `e` expiresAt (ms), `d` the stored JSON; PX = life + grace
 * - `P sessions`              sorted set of store keys scored by expiresAt: count() is its ZCARD
 * - `P principal:<id>`        sorted set of one principal's store keys scored by expiresAt
 * - `P service:<id>`          sorted set of the store keys of the sessions one service delegated
 *                             (`actingFor`), scored by expiresAt; the record's hash names it in `a`
 * Every sorted set drops members scored at or below `now` before it is read (lazy cleaning), and
 * keeps a TTL at least as long as its longest-lived member, so an idle Redis ends up empty.
 * `now` is always the gateway's clock, passed in: the port's expiry is by the gateway's clock.
 */

/** Lengthens a key's TTL to `ttl` ms unless it already has more (PTTL answers -1 when none is set). */
const EXTEND_TTL = `
local function extend(key, ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
`;

/**
 * put. KEYS: record, all sessions, principal index, service index (any key when not delegated).
 * ARGV: store key, principal id, expiresAt, ttl ms (remaining life plus the grace), stored JSON, now,
 * principal index prefix, service id ('' when not delegated), service index prefix. A record that
 * moved principal or service leaves the old one's index.
 */
export const PUT_SESSION = `${EXTEND_TTL}
local old = redis.call('HMGET', KEYS[1], 'p', 'a')
if old[1] and old[1] ~= ARGV[2] then redis.call('ZREM', ARGV[7] .. old[1], ARGV[1]) end
if old[2] and old[2] ~= ARGV[8] then redis.call('ZREM', ARGV[9] .. old[2], ARGV[1]) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'p', ARGV[2], 'e', ARGV[3], 'd', ARGV[5])
local last = 3
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'a', ARGV[8])
  last = 4
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local ttl = tonumber(ARGV[4])
for i = 2, last do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[6])
  redis.call('ZADD', KEYS[i], ARGV[3], ARGV[1])
  extend(KEYS[i], ttl)
end
return 1
`;

/**
 * delete. KEYS: record, all sessions. ARGV: store key, now, principal index prefix, service index
 * prefix. Answers 1 when a record live at `now` was there.
 */
export const DELETE_SESSION = `
local found = redis.call('HMGET', KEYS[1], 'p', 'e', 'a')
if not found[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', ARGV[3] .. found[1], ARGV[1])
if found[3] then redis.call('ZREM', ARGV[4] .. found[3], ARGV[1]) end
if tonumber(found[2]) > tonumber(ARGV[2]) then return 1 end
return 0
`;

/**
 * listByPrincipal (and the listing behind deleteActingFor). KEYS: principal or service index. ARGV: now, record key prefix. Answers [store key, JSON, ...]
 * of the live records; index members whose record is gone are dropped on the way.
 */
export const LIST_SESSIONS = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local out = {}
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local data = redis.call('HGET', ARGV[2] .. member, 'd')
  if data then
    out[#out + 1] = member
    out[#out + 1] = data
  else
    redis.call('ZREM', KEYS[1], member)
  end
end
return out
`;

/** count. KEYS: all sessions. ARGV: now. */
export const COUNT_SESSIONS = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZCARD', KEYS[1])
`;
