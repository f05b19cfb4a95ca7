import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, type TQueueName, type TQueuePayload } from './queue-registry';

export interface TQueueProducer {
  /** `jobId` is required and deterministic, so enqueuing the same work twice adds one job. */
  enqueue<N extends TQueueName>(name: N, payload: TQueuePayload<N>, options: { jobId: string; delayMs?: number }): Promise<void>;
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
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}

/** BullMQ joins its prefix and queue name with ':'; ours ends with one already. */
export function bullPrefix(prefix: string): string {
  return `${prefix.replace(/:$/, '')}:bull`;
}
