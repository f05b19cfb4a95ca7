import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { createTestRedisPrefix } from '@palisade/testing';
import { bullPrefix } from './producer';
import { startWorkers } from './worker-factory';

describe('queue workers', () => {
  const redisPrefix = createTestRedisPrefix();
  const connection = new Redis(redisPrefix.url, { maxRetriesPerRequest: null });
  const log = { info: () => undefined, error: () => undefined };
  afterAll(async () => {
    connection.disconnect();
    await redisPrefix.cleanup();
  });

  it('records a job that used its last attempt in the dead-letter queue, with its payload and error', async () => {
    const outboxId = randomUUID();
    const workers = startWorkers({
      connection,
      prefix: redisPrefix.prefix,
      queues: ['outbox-dispatch'],
      handlers: { 'outbox-dispatch': async () => Promise.reject(new Error('receiver down')) },
      log,
    });
    const deadLetters = new Queue('dead-letter', { connection, prefix: bullPrefix(redisPrefix.prefix) });
    const queue = new Queue('outbox-dispatch', { connection, prefix: bullPrefix(redisPrefix.prefix) });
    try {
      // One attempt only, so the test does not wait out the production backoff schedule.
      await queue.add('outbox-dispatch', { outbox_id: outboxId }, { jobId: `${outboxId}-once`, attempts: 1 });

      const deadline = Date.now() + 10_000;
      let parked: Awaited<ReturnType<typeof deadLetters.getJob>>;
      while (!(parked = await deadLetters.getJob(`outbox-dispatch-${outboxId}-once`)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(parked?.data).toMatchObject({ queue: 'outbox-dispatch', job_id: `${outboxId}-once`, payload: { outbox_id: outboxId }, error: 'receiver down' });
    } finally {
      await queue.close();
      await deadLetters.close();
      await workers.close();
    }
  });
});
