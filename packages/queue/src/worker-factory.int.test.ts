import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
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

  it('gives up a job whose worker died under it more often than allowed: dead-lettered, and its give-up runs once', async () => {
    const outboxId = randomUUID();
    const locks = { lockDurationMs: 600, stalledIntervalMs: 200, maxStalledCount: 0 };
    // Its own key space: the stalled check is throttled queue-wide by whoever ran it last (for
    // its stalledInterval), so the workers of the test above would hold it off for 30 s.
    const space = createTestRedisPrefix();
    const prefix = space.prefix;
    const queue = new Queue('outbox-dispatch', { connection, prefix: bullPrefix(prefix) });
    const deadLetters = new Queue('dead-letter', { connection, prefix: bullPrefix(prefix) });
    // A worker that takes the job and then stops renewing its lock, as a killed process would.
    let taken!: () => void;
    const running = new Promise<void>((resolve) => (taken = resolve));
    const doomed = new Worker('outbox-dispatch', () => (taken(), new Promise(() => undefined)), {
      connection,
      prefix: bullPrefix(prefix),
      lockDuration: locks.lockDurationMs,
      stalledInterval: locks.stalledIntervalMs,
    });
    const handled: string[] = [];
    const givenUp: Array<{ payload: unknown; error: string }> = [];
    let survivor: { close(): Promise<void> } | undefined;
    try {
      await queue.add('outbox-dispatch', { outbox_id: outboxId }, { jobId: `${outboxId}-stall`, attempts: 5 });
      await running;
      await doomed.close(true);
      survivor = startWorkers({
        connection,
        prefix,
        queues: ['outbox-dispatch'],
        handlers: { 'outbox-dispatch': async (payload) => void handled.push(payload.outbox_id) },
        giveUps: { 'outbox-dispatch': async (payload, error) => void givenUp.push({ payload, error: error.message }) },
        log,
        locks,
      });

      const deadline = Date.now() + 10_000;
      let parked: Awaited<ReturnType<typeof deadLetters.getJob>>;
      while (!(parked = await deadLetters.getJob(`outbox-dispatch-${outboxId}-stall`)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Four attempts left do not matter: BullMQ fails a job that stalled past the limit outright.
      expect(parked?.data).toMatchObject({ queue: 'outbox-dispatch', payload: { outbox_id: outboxId }, error: 'job stalled more than allowable limit' });
      expect(givenUp).toEqual([{ payload: { outbox_id: outboxId }, error: 'job stalled more than allowable limit' }]);
      expect(handled).toEqual([]);
    } finally {
      await survivor?.close();
      await queue.close();
      await deadLetters.close();
      await space.cleanup();
    }
  });
});
