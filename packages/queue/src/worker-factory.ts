import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import { makeQueueProducer, bullPrefix } from './producer';
import { QUEUES, type TQueueName, type TQueuePayload } from './queue-registry';

export type TJobHandler<N extends TQueueName> = (payload: TQueuePayload<N>, job: Job) => Promise<unknown>;
export type TJobHandlers = { [N in TQueueName]?: TJobHandler<N> };

export interface TWorkerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Starts one BullMQ worker per chosen queue. The payload is validated again on the way in, and
 * a job that has used its last attempt is copied to the dead-letter queue (a recorded state
 * the admin plane can replay) before BullMQ marks it failed.
 */
export function startWorkers(options: {
  connection: ConnectionOptions;
  prefix: string;
  queues: TQueueName[];
  handlers: TJobHandlers;
  log: TWorkerLog;
}): { close(): Promise<void> } {
  const deadLetters = makeQueueProducer({ connection: options.connection, prefix: options.prefix });
  const workers = options.queues.map((name) => {
    const handler = options.handlers[name] as TJobHandler<typeof name> | undefined;
    if (!handler) throw new Error(`no handler for queue ${name}`);
    const worker = new Worker(
      name,
      async (job) => handler(QUEUES[name].payload.parse(job.data) as never, job),
      { connection: options.connection, prefix: bullPrefix(options.prefix), concurrency: QUEUES[name].concurrency },
    );
    worker.on('failed', (job, error) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1);
      options.log.error({ queue: name, jobId: job.id, attempt: job.attemptsMade, final, err: error }, 'job failed');
      if (final && name !== 'dead-letter') {
        void deadLetters.enqueue(
          'dead-letter',
          { queue: name, job_id: String(job.id), payload: job.data, error: String(error?.message ?? error).slice(0, 4096), failed_at: new Date().toISOString() },
          { jobId: `${name}-${job.id}` },
        );
      }
    });
    return worker;
  });
  return {
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await deadLetters.close();
    },
  };
}
