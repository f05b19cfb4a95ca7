import net from 'node:net';
import Redis from 'ioredis';
import { createTestRedisPrefix } from '@palisade/testing';
import { closeRedis } from './shutdown';

describe('closing Redis on shutdown', () => {
  const redisPrefix = createTestRedisPrefix();
  afterAll(() => redisPrefix.cleanup());

  it('lets commands already issued finish before the connection closes, even those queued while connecting', async () => {
    const redis = new Redis(redisPrefix.url);
    const key = `${redisPrefix.prefix}shutdown:${Date.now()}`;
    // Issued, not awaited, before the connection is even up: disconnect() would reject them all.
    const pending = Array.from({ length: 50 }, (_, i) => redis.rpush(key, String(i)));
    await expect(closeRedis(redis)).resolves.toBe('quit');
    await expect(Promise.all(pending)).resolves.toHaveLength(50);
    expect(redis.status).toBe('end');

    const check = new Redis(redisPrefix.url);
    try {
      expect(await check.llen(key)).toBe(50);
      await check.del(key);
    } finally {
      check.disconnect();
    }
  });

  it('drops a connection whose server never answers QUIT, within the bound', async () => {
    // Answers every command with +OK, except QUIT, which it leaves unanswered.
    const mute = net.createServer((socket) => {
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        const commands = chunk.split(/\*\d+\r\n/).filter(Boolean);
        for (const command of commands) if (!/\bQUIT\b/i.test(command)) socket.write('+OK\r\n');
      });
    });
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const { port } = mute.address() as net.AddressInfo;
    const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, enableReadyCheck: false, retryStrategy: () => null });
    redis.on('error', () => undefined);
    await new Promise((resolve) => redis.once('ready', resolve));
    try {
      const started = Date.now();
      await expect(closeRedis(redis, 300)).resolves.toBe('disconnected');
      expect(Date.now() - started).toBeLessThan(2000);
      if (redis.status !== 'end') await new Promise((resolve) => redis.once('end', resolve));
      expect(redis.status).toBe('end');
    } finally {
      mute.close();
    }
  });

  it('is a no-op on a connection that already ended', async () => {
    const redis = new Redis(redisPrefix.url);
    await redis.quit();
    await expect(closeRedis(redis)).resolves.toBe('quit');
  });
});
