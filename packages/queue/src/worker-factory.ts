import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import { makeQueueProducer, bullPrefix } from './producer';
import { QUEUES, type TQueueName, type TQueuePayload } from './queue-registry';

export type TJobHandler<N extends TQueueName> = (payload: TQueuePayload<N>, job: Job) => Promise<unknown>;
export type TJobHandlers = { [N in TQueueName]?: TJobHandler<N> };

/**
 * Called once for a job that will not run again without its handler having dealt with it: it
 * used its last attempt throwing, or BullMQ failed it without running it (a job whose worker
 * died under it more than `maxStalledCount` times). What the job was meant to move (a scan
 * tool left `running`) must not wait for some other clock to end it.
 */
export type TJobGiveUp<N extends TQueueName> = (payload: TQueuePayload<N>, error: Error) => Promise<void>;
export type TJobGiveUps = { [N in TQueueName]?: TJobGiveUp<N> };

/**
 * How a dead worker is noticed. A worker holds a lock on each job it runs, renewed every
 * `lockDurationMs / 2`; a job whose lock lapsed (its process is gone) is found by the stalled
 * check, run every `stalledIntervalMs`, and handed to another worker, at most `maxStalledCount`
 * times. The defaults are BullMQ's.
 */
export interface TWorkerLockSettings {
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
}

export const DEFAULT_WORKER_LOCK_SETTINGS = { lockDurationMs: 30_000, stalledIntervalMs: 30_000, maxStalledCount: 1 } as const satisfies Required<TWorkerLockSettings>;

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
  giveUps?: TJobGiveUps;
  locks?: TWorkerLockSettings;
}): { close(): Promise<void> } {
  const locks = { ...DEFAULT_WORKER_LOCK_SETTINGS, ...options.locks };
  const deadLetters = makeQueueProducer({ connection: options.connection, prefix: options.prefix });
  const workers = options.queues.map((name) => {
    const handler = options.handlers[name] as TJobHandler<typeof name> | undefined;
    if (!handler) throw new Error(`no handler for queue ${name}`);
    const worker = new Worker(
      name,
      async (job) => handler(QUEUES[name].payload.parse(job.data) as never, job),
      {
        connection: options.connection,
        prefix: bullPrefix(options.prefix),
        concurrency: QUEUES[name].concurrency,
        lockDuration: locks.lockDurationMs,
        stalledInterval: locks.stalledIntervalMs,
        maxStalledCount: locks.maxStalledCount,
      },
    );
    const giveUp = options.giveUps?.[name] as TJobGiveUp<typeof name> | undefined;
    worker.on('failed', (job, error) => {
      if (!job) return;
      // An unrecoverable failure (BullMQ's own, e.g. "job stalled more than allowable limit") ends
      // the job whatever attempts it has left.
      const final = error?.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
      options.log.error({ queue: name, jobId: job.id, attempt: job.attemptsMade, final, err: error }, 'job failed');
      if (final && giveUp) {
        const payload = QUEUES[name].payload.safeParse(job.data);
        if (payload.success) {
          void giveUp(payload.data as never, error).catch((err: unknown) =>
            options.log.error({ queue: name, jobId: job.id, err }, 'giving up on a job left its work unfinished'),
          );
        }
      }
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
