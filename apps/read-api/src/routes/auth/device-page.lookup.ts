// What the verification page may know about a user code: which client asks and for what.
// Read-only over the grant store the write plane owns (keys from @palisade/domain).
import type { Redis } from 'ioredis';
import { deviceGrantKeys, findDeviceClient, GUESS_WINDOW_SECONDS, MAX_USER_CODE_GUESSES, normalizeUserCode } from '@palisade/domain';

export type TDevicePageRequest =
  | { kind: 'none' }
  | { kind: 'pending'; userCode: string; clientId: string; clientName: string; scopes: string[] }
  | { kind: 'decided'; userCode: string }
  | { kind: 'unknown'; typed: string }
  | { kind: 'too_many_guesses'; retryAfterSeconds: number };

// KEYS: guesses key. ARGV: window seconds.
const COUNT_GUESS = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

export function makeDevicePageLookup({ redis, prefix, now = Date.now }: { redis: Redis; prefix: string; now?: () => number }) {
  const keys = deviceGrantKeys(prefix);
  return {
    /**
     * The pending request behind a typed code. Wrong guesses count per client address
     * (RFC 8628 section 5.1), so the page is no oracle for enumerating live codes.
     */
    async find(typed: string | undefined, clientAddress: string): Promise<TDevicePageRequest> {
      if (typed === undefined || typed.trim() === '') return { kind: 'none' };
      const guessKey = keys.guesses(`ip:${clientAddress}`);
      const guesses = Number((await redis.get(guessKey)) ?? 0);
      if (guesses >= MAX_USER_CODE_GUESSES) return { kind: 'too_many_guesses', retryAfterSeconds: Math.max(await redis.ttl(guessKey), 1) };

      const userCode = normalizeUserCode(typed);
      const hash = userCode ? await redis.get(keys.userCode(userCode)) : null;
      const grant = hash ? await redis.hgetall(keys.grant(hash)) : {};
      if (!userCode || !grant.status || Number(grant.expires_at) <= now()) {
        await redis.eval(COUNT_GUESS, 1, guessKey, String(GUESS_WINDOW_SECONDS));
        return { kind: 'unknown', typed };
      }
      if (grant.status !== 'pending') return { kind: 'decided', userCode };
      return {
        kind: 'pending',
        userCode,
        clientId: grant.client_id,
        clientName: findDeviceClient(grant.client_id)?.name ?? grant.client_id,
        scopes: (grant.scopes ?? '').split(' ').filter(Boolean),
      };
    },
  };
}

export type TDevicePageLookup = ReturnType<typeof makeDevicePageLookup>;
