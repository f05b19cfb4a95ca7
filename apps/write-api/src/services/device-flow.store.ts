// Device authorizations in Redis, shared by every write-api process. Each step that reads a
// state and changes it runs as one Lua script, so two processes (or two polls) can never both
// approve, or both redeem, the same grant.
import type { Redis } from 'ioredis';
import {
  deviceGrantKeys,
  EXPIRED_GRANT_RETENTION_SECONDS,
  GUESS_WINDOW_SECONDS,
  SLOW_DOWN_STEP_SECONDS,
  type TDeviceGrant,
  type TDevicePollOutcome,
  type TDeviceScopeName,
} from '@palisade/domain';

export interface TNewDeviceGrant extends Omit<TDeviceGrant, 'status' | 'userId'> {
  id: string;
  deviceCodeHash: string;
}

export type TStoredDeviceGrant = TDeviceGrant & { id: string; deviceCodeHash: string };

export type TDecideResult =
  | { kind: 'decided'; grant: TStoredDeviceGrant }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'already_decided'; status: string };

// KEYS: user-code key, grant key. ARGV: device-code hash, user-code TTL ms, grant TTL ms, then field/value pairs.
// The user code is claimed with NX: a collision (astronomically rare) makes the caller draw again.
const CREATE = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[2], unpack(fields))
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

// KEYS: grant key. ARGV: now ms, new status, user id, user code.
const DECIDE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown'} end
local g = redis.call('HMGET', KEYS[1], 'status', 'expires_at', 'user_code')
if g[3] ~= ARGV[4] then return {'unknown'} end
if tonumber(ARGV[1]) >= tonumber(g[2]) then return {'expired'} end
if g[1] ~= 'pending' then return {'already_decided', g[1]} end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'user_id', ARGV[3], 'decided_at', ARGV[1])
return {'decided'}`;

// KEYS: grant key. ARGV: now ms, client id, slow-down step seconds.
// The redeeming poll flips approved → redeemed in the same script that saw `approved`: the
// tokens are issued exactly once. Polls closer together than the interval grow it (RFC 8628 3.5).
const POLL = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'invalid', 'unknown'} end
local g = redis.call('HMGET', KEYS[1], 'status', 'client_id', 'expires_at', 'interval', 'last_poll_at', 'user_id', 'scopes', 'id')
local now = tonumber(ARGV[1])
if g[2] ~= ARGV[2] then return {'invalid', 'other_client'} end
if g[1] == 'redeemed' then return {'invalid', 'redeemed'} end
if now >= tonumber(g[3]) then return {'expired'} end
if g[1] == 'approved' then
  redis.call('HSET', KEYS[1], 'status', 'redeemed', 'redeemed_at', ARGV[1])
  return {'approved', g[6], g[7], g[8]}
end
if g[1] == 'denied' then return {'denied'} end
local interval = tonumber(g[4])
redis.call('HSET', KEYS[1], 'last_poll_at', ARGV[1])
if g[5] and (now - tonumber(g[5])) < interval * 1000 then
  interval = interval + tonumber(ARGV[3])
  redis.call('HSET', KEYS[1], 'interval', interval)
  return {'slow_down', tostring(interval)}
end
return {'pending', tostring(interval)}`;

// KEYS: guesses key. ARGV: window seconds. Counts one wrong guess, starting the window on the first.
const COUNT_GUESS = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

export type TDeviceGrantStore = ReturnType<typeof makeDeviceGrantStore>;

export function makeDeviceGrantStore({ redis, prefix }: { redis: Redis; prefix: string }) {
  const keys = deviceGrantKeys(prefix);

  async function byDeviceCodeHash(deviceCodeHash: string): Promise<TStoredDeviceGrant | null> {
    const fields = await redis.hgetall(keys.grant(deviceCodeHash));
    return fields.status ? fromHash(deviceCodeHash, fields) : null;
  }

  return {
    /** False when the user code is already taken: draw another. */
    async create(grant: TNewDeviceGrant, now: number): Promise<boolean> {
      const ttl = Math.max(grant.expiresAt - now, 1);
      const fields: Record<string, string> = {
        id: grant.id,
        status: 'pending',
        client_id: grant.clientId,
        scopes: grant.scopes.join(' '),
        user_code: grant.userCode,
        expires_at: String(grant.expiresAt),
        interval: String(grant.intervalSeconds),
        created_at: String(now),
      };
      const created = await redis.eval(
        CREATE,
        2,
        keys.userCode(grant.userCode),
        keys.grant(grant.deviceCodeHash),
        grant.deviceCodeHash,
        String(ttl),
        String(ttl + EXPIRED_GRANT_RETENTION_SECONDS * 1000),
        ...Object.entries(fields).flat(),
      );
      return created === 1;
    },

    async byUserCode(userCode: string): Promise<TStoredDeviceGrant | null> {
      const hash = await redis.get(keys.userCode(userCode));
      return hash ? byDeviceCodeHash(hash) : null;
    },

    async decide(userCode: string, decision: 'approved' | 'denied', userId: string, now: number): Promise<TDecideResult> {
      const hash = await redis.get(keys.userCode(userCode));
      if (!hash) return { kind: 'unknown' };
      const [kind, status] = (await redis.eval(DECIDE, 1, keys.grant(hash), String(now), decision, userId, userCode)) as string[];
      if (kind === 'decided') {
        const grant = await byDeviceCodeHash(hash);
        return grant ? { kind, grant } : { kind: 'expired' };
      }
      if (kind === 'already_decided') return { kind, status: status ?? 'unknown' };
      return { kind: kind as 'unknown' | 'expired' };
    },

    async poll(deviceCodeHash: string, clientId: string, now: number): Promise<TDevicePollOutcome> {
      const [kind, a, b, c] = (await redis.eval(POLL, 1, keys.grant(deviceCodeHash), String(now), clientId, String(SLOW_DOWN_STEP_SECONDS))) as string[];
      switch (kind) {
        case 'approved':
          return { kind, userId: a, scopes: splitScopes(b), grantId: c };
        case 'pending':
        case 'slow_down':
          return { kind, intervalSeconds: Number(a) };
        case 'denied':
        case 'expired':
          return { kind };
        default:
          return { kind: 'invalid', reason: a as 'unknown' | 'other_client' | 'redeemed' };
      }
    },

    /** Wrong user codes of one account so far in the window, and seconds until it resets. */
    async guesses(who: string): Promise<{ count: number; resetInSeconds: number }> {
      const [count, ttl] = await Promise.all([redis.get(keys.guesses(who)), redis.ttl(keys.guesses(who))]);
      return { count: Number(count ?? 0), resetInSeconds: Math.max(ttl, 1) };
    },

    async countGuess(who: string): Promise<number> {
      return Number(await redis.eval(COUNT_GUESS, 1, keys.guesses(who), String(GUESS_WINDOW_SECONDS)));
    },
  };
}

function fromHash(deviceCodeHash: string, fields: Record<string, string>): TStoredDeviceGrant {
  return {
    id: fields.id,
    deviceCodeHash,
    clientId: fields.client_id,
    scopes: splitScopes(fields.scopes),
    userCode: fields.user_code,
    status: fields.status as TDeviceGrant['status'],
    expiresAt: Number(fields.expires_at),
    intervalSeconds: Number(fields.interval),
    ...(fields.user_id ? { userId: fields.user_id } : {}),
  };
}

function splitScopes(value: string | undefined): TDeviceScopeName[] {
  return (value ?? '').split(' ').filter(Boolean) as TDeviceScopeName[];
}
