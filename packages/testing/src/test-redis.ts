// A private key space per test file in the shared local Redis: every key the test writes
// starts with a random prefix, and cleanup deletes exactly those keys (SCAN + UNLINK, never
// FLUSHDB, which would wipe other files running in parallel).
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export type TTestRedisPrefix = {
  /** `palisade:test:<random>:` */
  prefix: string;
  url: string;
  /** Deletes every key under the prefix; returns how many. */
  cleanup(): Promise<number>;
};

export function testRedisUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.REDIS_URL || DEFAULT_REDIS_URL;
  const { hostname } = new URL(url);
  if (!LOCAL_HOSTS.has(hostname.toLowerCase())) {
    throw new Error(`refusing to run tests against Redis at ${hostname}: only a local Redis is allowed`);
  }
  return url;
}

export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

export function createTestRedisPrefix(): TTestRedisPrefix {
  const url = testRedisUrl();
  // Base36 only: no glob characters that would widen the SCAN pattern.
  const prefix = `palisade:test:${BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36)}:`;
  return {
    prefix,
    url,
    async cleanup() {
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        return await deleteKeysWithPrefix(redis, prefix);
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** For a Jest test file: a prefix for the whole file, its keys deleted in afterAll. */
export function useTestRedisPrefix(): TTestRedisPrefix {
  const handle = createTestRedisPrefix();
  afterAll(async () => {
    await handle.cleanup();
  });
  return handle;
}
