import type { Db } from '@palisade/db';
import { dispatchOutbox as dispatchOutboxRows, type TQueueProducer } from '@palisade/queue';
import type { TRepositorySourcePolicy } from '@palisade/domain';
import type { Redis } from 'ioredis';

export interface TJobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the scan-lifecycle jobs need; wired once per worker process. */
export interface TScanJobDeps {
  db: Pick<Db, 'primary'>;
  queue: Pick<TQueueProducer, 'enqueue' | 'enqueueMany'>;
  log: TJobLog;
}

export interface TScanToolJobDeps extends TScanJobDeps {
  /** Base URL of the callback plane as the worker reaches it (CALLBACK_BASE_URL, else PUBLIC_BASE_URL). */
  callbackBaseUrl: string;
  /** Where checkouts are made (a fresh directory per job, removed afterwards). */
  workDir: string;
  /** Which repository URLs may be cloned (file:// only where FILE_REPOSITORIES_ENABLED). */
  repositorySources: TRepositorySourcePolicy;
  /** OSV advisories for the built-in sca (PALISADE_ADVISORY_DIR). */
  advisoryDir?: string;
  fetch?: typeof fetch;
}

export interface TOutboxJobDeps {
  db: Pick<Db, 'primary'>;
  redis: Pick<Redis, 'eval'>;
  redisPrefix: string;
  queue: Pick<TQueueProducer, 'enqueue' | 'enqueueMany'>;
  log: TJobLog;
}

/** Enqueues outbox-dispatch for freshly written rows; a miss is picked up by the sweeper. */
export function dispatchOutbox(deps: Pick<TScanJobDeps, 'queue' | 'log'>, ids: readonly string[]): Promise<void> {
  return dispatchOutboxRows(deps.queue, ids, deps.log);
}

/** Enqueues the start jobs a scan needs (deadline, plan or tools); ids are deterministic, so repeats are harmless. */
export async function enqueueStartJobs(
  deps: Pick<TScanJobDeps, 'queue'>,
  jobs: ReadonlyArray<{ queue: 'scan-plan' | 'scan-tool' | 'scan-deadline'; payload: unknown; jobId: string; delayMs?: number }>,
): Promise<void> {
  for (const job of jobs) {
    await deps.queue.enqueue(job.queue, job.payload as never, { jobId: job.jobId, delayMs: job.delayMs });
  }
}
