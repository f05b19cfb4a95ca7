import { z } from 'zod';
import { ZBaseEnv } from '@palisade/platform';

export const ZWorkerEnv = ZBaseEnv.extend({
  /** Which queues this process consumes: `all`, or a comma list, so each can be its own deployment. */
  WORKER_QUEUES: z.string().default('all'),
  /** How the worker reaches the callback plane to post built-in tool reports (default PUBLIC_BASE_URL). */
  CALLBACK_BASE_URL: z.url().optional(),
  /** Parent directory of the worker's checkouts (default the OS temp directory). */
  WORKER_WORK_DIR: z.string().max(1024).optional(),
  /** OSV advisories (JSON files, any layout) the built-in sca matches lockfiles against; unset, sca lists packages only. */
  PALISADE_ADVISORY_DIR: z.string().max(1024).optional(),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;
