import { z } from 'zod';
import type { JobsOptions } from 'bullmq';

export interface TQueueDefinition<P extends z.ZodType = z.ZodType> {
  payload: P;
  defaults: JobsOptions;
  /** How many jobs of this queue one worker process runs at once. */
  concurrency: number;
}

const retrying = (attempts: number, delayMs: number): JobsOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: delayMs },
  // Completed jobs are not history (the database is); failed ones stay until replayed or pruned.
  removeOnComplete: { count: 1000 },
  removeOnFail: false,
});

/**
 * Every queue, its payload schema and its defaults, in one place. Payloads carry ids, never
 * state: a consumer re-reads the row, so a retried or replayed job is harmless.
 */
export const QUEUES = {
  'dead-letter': {
    payload: z
      .object({ queue: z.string().max(64), job_id: z.string().max(256), payload: z.unknown(), error: z.string().max(4096), failed_at: z.string() })
      .strict(),
    defaults: { removeOnComplete: false, removeOnFail: false },
    concurrency: 1,
  },
  // Scan lifecycle (issue 4). Payloads carry ids; every consumer re-reads the rows first.
  'scan-fanout': {
    payload: z.object({ org_id: z.uuid(), scan_request_id: z.uuid() }).strict(),
    defaults: retrying(5, 1000),
    concurrency: 2,
  },
  'scan-plan': {
    payload: z.object({ org_id: z.uuid(), scan_id: z.uuid() }).strict(),
    defaults: retrying(3, 2000),
    concurrency: 4,
  },
  'scan-tool': {
    payload: z.object({ org_id: z.uuid(), scan_id: z.uuid(), tool: z.string().max(64) }).strict(),
    defaults: retrying(3, 2000),
    concurrency: 4,
  },
  'scan-deadline': {
    payload: z.object({ org_id: z.uuid(), scan_id: z.uuid() }).strict(),
    defaults: retrying(10, 1000),
    concurrency: 8,
  },
  'outbox-sweep': {
    payload: z.object({}).strict(),
    defaults: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
    concurrency: 1,
  },
  'outbox-dispatch': {
    payload: z.object({ outbox_id: z.uuid() }).strict(),
    defaults: retrying(10, 1000),
    concurrency: 8,
  },
} as const satisfies Record<string, TQueueDefinition>;

export type TQueueName = keyof typeof QUEUES;
export type TQueuePayload<N extends TQueueName> = z.infer<(typeof QUEUES)[N]['payload']>;
export const QUEUE_NAMES = Object.keys(QUEUES) as TQueueName[];

export function isQueueName(name: string): name is TQueueName {
  return name in QUEUES;
}
