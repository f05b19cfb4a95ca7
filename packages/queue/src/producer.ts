import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, type TQueueName, type TQueuePayload } from './queue-registry';

export interface TQueueProducer {
  /** `jobId` is required and deterministic, so enqueuing the same work twice adds one job. */
  enqueue<N extends TQueueName>(name: N, payload: TQueuePayload<N>, options: { jobId: string; delayMs?: number }): Promise<void>;
  /** Several jobs of one queue in one Redis round trip, each as enqueue would add it. */
  enqueueMany<N extends TQueueName>(
    name: N,
    jobs: ReadonlyArray<{ payload: TQueuePayload<N>; jobId: string; delayMs?: number }>,
  ): Promise<void>;
  close(): Promise<void>;
}

export function makeQueueProducer({ connection, prefix }: { connection: ConnectionOptions; prefix: string }): TQueueProducer {
  const queues = new Map<TQueueName, Queue>();
  const queueFor = (name: TQueueName) => {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix: bullPrefix(prefix), defaultJobOptions: QUEUES[name].defaults });
      queues.set(name, queue);
    }
    return queue;
  };
  return {
    async enqueue(name, payload, options) {
      const valid = QUEUES[name].payload.parse(payload);
      await queueFor(name).add(name, valid, { jobId: options.jobId, delay: options.delayMs });
    },
    async enqueueMany(name, jobs) {
      if (jobs.length === 0) return;
      const payload = QUEUES[name].payload;
      await queueFor(name).addBulk(
        jobs.map((job) => ({ name, data: payload.parse(job.payload), opts: { jobId: job.jobId, delay: job.delayMs } })),
      );
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}

/** BullMQ joins its prefix and queue name with ':'; ours ends with one already. */
export function bullPrefix(prefix: string): string {
  return `${prefix.replace(/:$/, '')}:bull`;
}

/**
 * Enqueues outbox-dispatch for rows just committed, in one round trip. Best effort: the rows are
 * durable already, and one whose job is lost here is found by the outbox sweeper.
 */
export async function dispatchOutbox(
  queue: Pick<TQueueProducer, 'enqueueMany'>,
  ids: readonly string[],
  log?: { warn(details: object, message: string): void },
): Promise<void> {
  await queue
    .enqueueMany(
      'outbox-dispatch',
      ids.map((id) => ({ payload: { outbox_id: id }, jobId: id })),
    )
    .catch((err) => log?.warn({ err, outboxRows: ids.length }, 'outbox dispatch not enqueued; the sweeper will pick the rows up'));
}
