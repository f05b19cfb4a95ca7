import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@palisade/domain';

// Sign-in attempts allowed before a pause: per account (a targeted guess) and per client address
// (a spray across accounts). A successful sign-in gives its attempt back, so in effect these
// count failures.
export const ACCOUNT_ATTEMPTS = 10;
const ACCOUNT_WINDOW_SECONDS = 15 * 60;
export const ADDRESS_ATTEMPTS = 100;
const ADDRESS_WINDOW_SECONDS = 60 * 60;

export interface TLoginThrottle {
  /**
   * Takes this attempt from the account's and the address's budgets before the password is
   * checked, or refuses with 429 once either is spent. Taking it first (an atomic increment,
   * not a read) is what stops a burst of parallel guesses from all passing one check.
   */
  check(email: string, ip: string): Promise<void>;
  /** The right password: clears the account's budget and, given the address, gives its attempt back. */
  recordSuccess(email: string, ip?: string): Promise<void>;
}

export function makeLoginThrottle({ redis, prefix }: { redis: Redis; prefix: string }): TLoginThrottle {
  const byAccount = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}login:account`,
    points: ACCOUNT_ATTEMPTS,
    duration: ACCOUNT_WINDOW_SECONDS,
    blockDuration: ACCOUNT_WINDOW_SECONDS,
  });
  const byAddress = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}login:address`,
    points: ADDRESS_ATTEMPTS,
    duration: ADDRESS_WINDOW_SECONDS,
    blockDuration: ADDRESS_WINDOW_SECONDS,
  });

  return {
    async check(email, ip) {
      await consumeOrRefuse(byAccount, email);
      try {
        await consumeOrRefuse(byAddress, ip);
      } catch (error) {
        // Refused by the address: this attempt never reaches the password, so the account keeps it.
        await byAccount.reward(email, 1);
        throw error;
      }
    },
    async recordSuccess(email, ip) {
      await byAccount.delete(email);
      if (ip !== undefined) await byAddress.reward(ip, 1);
    },
  };
}

async function consumeOrRefuse(limiter: RateLimiterRedis, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw new AppError('too_many_attempts', {
      message: 'Too many failed sign-ins; sign-in is paused for this account or address.',
      retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
    });
  }
}
