import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { createTestRedisPrefix } from '@palisade/testing';
import { bullPrefix, dispatchOutbox, makeQueueProducer } from './producer';

describe('queue producer', () => {
  const redisPrefix = createTestRedisPrefix();
  const connection = new Redis(redisPrefix.url, { maxRetriesPerRequest: null });
  const producer = makeQueueProducer({ connection, prefix: redisPrefix.prefix });
  const queue = new Queue('outbox-dispatch', { connection, prefix: bullPrefix(redisPrefix.prefix) });
  afterAll(async () => {
    await producer.close();
    await queue.close();
    connection.disconnect();
    await redisPrefix.cleanup();
  });

  it('enqueues outbox-dispatch for many rows at once, one job per row however often it is asked', async () => {
    const ids = Array.from({ length: 300 }, () => randomUUID());
    await dispatchOutbox(producer, ids);
    await dispatchOutbox(producer, ids.slice(0, 10));
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(jobs).toHaveLength(300);
    expect(new Set(jobs.map((job) => job.id))).toEqual(new Set(ids));
    expect((await queue.getJob(ids[42]))?.data).toEqual({ outbox_id: ids[42] });
  });

  it('refuses a malformed payload before anything is enqueued', async () => {
    await expect(producer.enqueueMany('outbox-dispatch', [{ payload: { outbox_id: 'not-a-uuid' }, jobId: 'x' }])).rejects.toThrow();
    expect(await queue.getJob('x')).toBeUndefined();
  });

  it('reports a failed enqueue to the log instead of throwing (the sweeper picks the rows up)', async () => {
    const warnings: string[] = [];
    // Nothing listens on port 1: the command fails at once instead of waiting for a reconnect.
    const down = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on('error', () => undefined);
    const unreachable = makeQueueProducer({ connection: down, prefix: redisPrefix.prefix });
    try {
      await dispatchOutbox(unreachable, [randomUUID()], { warn: (_details, message) => void warnings.push(message) });
    } finally {
      await unreachable.close().catch(() => undefined);
      down.disconnect();
    }
    expect(warnings).toEqual(['outbox dispatch not enqueued; the sweeper will pick the rows up']);
  });
});
