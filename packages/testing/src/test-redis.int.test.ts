import Redis from 'ioredis';
import { createTestRedisPrefix, testRedisUrl } from './test-redis';

describe('test Redis prefixes', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(testRedisUrl());
  });
  afterAll(() => redis.disconnect());

  it('are random and shaped palisade:test:<random>:', () => {
    const a = createTestRedisPrefix();
    const b = createTestRedisPrefix();
    expect(a.prefix).toMatch(/^palisade:test:[0-9a-z]+:$/);
    expect(a.prefix).not.toBe(b.prefix);
  });

  it('cleanup deletes every key under the prefix and nothing else', async () => {
    const mine = createTestRedisPrefix();
    const neighbour = createTestRedisPrefix();
    const pipeline = redis.pipeline();
    for (let i = 0; i < 2500; i += 1) pipeline.set(`${mine.prefix}k${i}`, '1');
    pipeline.set(`${neighbour.prefix}keep`, '1');
    await pipeline.exec();

    await expect(mine.cleanup()).resolves.toBe(2500);
    await expect(redis.exists(`${mine.prefix}k0`)).resolves.toBe(0);
    await expect(redis.get(`${neighbour.prefix}keep`)).resolves.toBe('1');
    await neighbour.cleanup();
  });

  it('refuses a Redis that is not local', () => {
    expect(() => testRedisUrl({ REDIS_URL: 'redis://cache.example.com:6379' })).toThrow(/refusing/);
  });
});
