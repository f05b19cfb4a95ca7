import { z } from 'zod';
import { ZBaseEnv } from '@palisade/platform';
import { DEFAULT_WORKER_LOCK_SETTINGS } from '@palisade/queue';

export const ZWorkerEnv = ZBaseEnv.extend({
  /** Which queues this process consumes: `all`, or a comma list, so each can be its own deployment. */
  WORKER_QUEUES: z.string().default('all'),
  /** How the worker reaches the callback plane to post built-in tool reports (default PUBLIC_BASE_URL). */
  CALLBACK_BASE_URL: z.url().optional(),
  /** Parent directory of the worker's checkouts (default the OS temp directory). */
  WORKER_WORK_DIR: z.string().max(1024).optional(),
  /** OSV advisories (JSON files, any layout) the built-in sca matches lockfiles against; unset, sca lists packages only. */
  PALISADE_ADVISORY_DIR: z.string().max(1024).optional(),
  /** How long a job's lock outlives a silent worker (renewed every half of it); a killed worker's jobs are retried after about this long. */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(500).max(3_600_000).default(DEFAULT_WORKER_LOCK_SETTINGS.lockDurationMs),
  /** How often jobs whose lock lapsed are looked for and handed to a live worker. */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_WORKER_LOCK_SETTINGS.stalledIntervalMs),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;
