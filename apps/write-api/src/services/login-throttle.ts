import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@palisade/domain';

// Failed sign-ins allowed before a pause: per account (a targeted guess) and per client
// address (a spray across accounts). Success clears the account's count.
const ACCOUNT_FAILURES = 10;
const ACCOUNT_WINDOW_SECONDS = 15 * 60;
const ADDRESS_FAILURES = 100;
const ADDRESS_WINDOW_SECONDS = 60 * 60;

export interface TLoginThrottle {
  /** Refuses with 429 while the account or the address is paused. */
  check(email: string, ip: string): Promise<void>;
  recordFailure(email: string, ip: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

export function makeLoginThrottle({ redis, prefix }: { redis: Redis; prefix: string }): TLoginThrottle {
  const byAccount = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}login:account`,
    points: ACCOUNT_FAILURES,
    duration: ACCOUNT_WINDOW_SECONDS,
    blockDuration: ACCOUNT_WINDOW_SECONDS,
  });
  const byAddress = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}login:address`,
    points: ADDRESS_FAILURES,
    duration: ADDRESS_WINDOW_SECONDS,
    blockDuration: ADDRESS_WINDOW_SECONDS,
  });

  return {
    async check(email, ip) {
      const [account, address] = await Promise.all([byAccount.get(email), byAddress.get(ip)]);
      const paused = [
        account && account.consumedPoints >= ACCOUNT_FAILURES ? account : null,
        address && address.consumedPoints >= ADDRESS_FAILURES ? address : null,
      ].filter((res): res is RateLimiterRes => res !== null);
      if (paused.length) {
        const waitMs = Math.max(...paused.map((res) => res.msBeforeNext));
        throw new AppError('too_many_attempts', {
          message: 'Too many failed sign-ins; sign-in is paused for this account or address.',
          retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        });
      }
    },
    async recordFailure(email, ip) {
      // Over the limit consume() rejects: the pause is already recorded, nothing more to do.
      await Promise.all([byAccount.consume(email).catch(ignoreLimit), byAddress.consume(ip).catch(ignoreLimit)]);
    },
    async recordSuccess(email) {
      await byAccount.delete(email);
    },
  };
}

function ignoreLimit(rejection: unknown): void {
  if (!(rejection instanceof RateLimiterRes)) throw rejection;
}
