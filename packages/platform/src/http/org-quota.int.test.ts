import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createTestRedisPrefix } from '@palisade/testing';
import { makeOrgQuota } from './org-quota';

describe('per-organization quotas in Redis', () => {
  const redisPrefix = createTestRedisPrefix();
  // Two clients stand for two write-api processes: the budget lives only in Redis.
  const first = new Redis(redisPrefix.url);
  const second = new Redis(redisPrefix.url);
  afterAll(async () => {
    first.disconnect();
    second.disconnect();
    await redisPrefix.cleanup();
  });

  const quotaFor = (redis: Redis, limits = { requestsPerMinute: 3, burst: 2 }) =>
    makeOrgQuota({ redis, prefix: redisPrefix.prefix, limitsFor: async () => limits, onStoreError: (error) => { throw error; } });

  it('holds one budget across processes and refuses the overrun with 429 and Retry-After', async () => {
    const orgId = randomUUID();
    const a = quotaFor(first);
    const b = quotaFor(second);
    // 3 per minute plus a burst of 2: five calls pass, split across both processes.
    for (const quota of [a, b, a, b, a]) await quota.consume(orgId);
    await expect(b.consume(orgId)).rejects.toMatchObject({ code: 'rate_limited', status: 429, retryAfterSeconds: expect.any(Number) });
    await expect(a.consume(orgId)).rejects.toMatchObject({ code: 'rate_limited', retryable: true });
  });

  it('keeps organizations apart', async () => {
    const quota = quotaFor(first, { requestsPerMinute: 1, burst: 0 });
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    await quota.consume(orgA);
    await expect(quota.consume(orgA)).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(quota.consume(orgB)).resolves.toBeUndefined();
  });

  it('falls back to the default limits when none are set', async () => {
    const quota = makeOrgQuota({ redis: first, prefix: redisPrefix.prefix, limitsFor: async () => null, onStoreError: () => undefined });
    await expect(quota.consume(randomUUID())).resolves.toBeUndefined();
  });
});
