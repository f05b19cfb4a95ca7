import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@palisade/domain';

export interface TQuotaLimits {
  requestsPerMinute: number;
  burst: number;
}

/** What an organization gets until an administrator sets its own limits. */
export const DEFAULT_QUOTA: TQuotaLimits = { requestsPerMinute: 600, burst: 300 };

// The burst allowance refills over ten minutes: a short spike is absorbed, a sustained
// overrun is not. Limits are re-read this often, so an admin change lands within it.
const BURST_WINDOW_SECONDS = 600;
const LIMITS_TTL_MS = 30_000;

export interface TOrgQuota {
  /** Spends one request of the organization's budget; throws a 429 refusal when none is left. */
  consume(orgId: string): Promise<void>;
}

/**
 * Per-organization budgets for mutating calls, kept in Redis so every write-api process spends
 * from the same bucket (rate-limiter-flexible's bursty limiter: a steady rate plus a burst pool).
 */
export function makeOrgQuota({
  redis,
  prefix,
  limitsFor,
  onStoreError,
}: {
  redis: Redis;
  prefix: string;
  limitsFor: (orgId: string) => Promise<TQuotaLimits | null>;
  onStoreError: (error: unknown) => void;
}): TOrgQuota {
  const limiters = new Map<string, BurstyRateLimiter | RateLimiterRedis>();
  const limitsCache = new Map<string, { limits: TQuotaLimits; at: number }>();

  function limiterFor(limits: TQuotaLimits): BurstyRateLimiter | RateLimiterRedis {
    const key = `${limits.requestsPerMinute}:${limits.burst}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      const steady = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}quota:rate`, points: limits.requestsPerMinute, duration: 60 });
      limiter =
        limits.burst > 0
          ? new BurstyRateLimiter(
              steady,
              new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}quota:burst`, points: limits.burst, duration: BURST_WINDOW_SECONDS }),
            )
          : steady;
      limiters.set(key, limiter);
    }
    return limiter;
  }

  async function currentLimits(orgId: string): Promise<TQuotaLimits> {
    const cached = limitsCache.get(orgId);
    if (cached && Date.now() - cached.at < LIMITS_TTL_MS) return cached.limits;
    const limits = (await limitsFor(orgId)) ?? DEFAULT_QUOTA;
    limitsCache.set(orgId, { limits, at: Date.now() });
    return limits;
  }

  return {
    async consume(orgId) {
      const limiter = limiterFor(await currentLimits(orgId));
      try {
        await limiter.consume(orgId);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          throw new AppError('rate_limited', {
            message: 'This organization has used its request budget for now.',
            retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
          });
        }
        // A quota store that is down must not take the API down with it: fail open, loudly.
        onStoreError(rejection);
      }
    },
  };
}
