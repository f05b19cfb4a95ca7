import { makeOutboxRepo } from '@palisade/db';
import type { TQueuePayload } from '@palisade/queue';
import type { TOutboxJobDeps } from './scan-job-deps';

/** Entries kept per organization stream (approximate trimming, as Redis does it cheaply). */
export const ORG_STREAM_MAXLEN = 10_000;
/** How long the "already published" marker of an outbox row lives: longer than any retry schedule. */
const PUBLISHED_MARKER_TTL_SECONDS = 7 * 24 * 3600;

export const orgStreamKey = (prefix: string, orgId: string) => `${prefix}events:org:${orgId}`;

// Publish once: the marker key and the XADD happen atomically, so a retry after "published but
// not yet marked dispatched" (a crash between the two) does not add the entry a second time.
const PUBLISH_ONCE = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'event_id', ARGV[3], 'topic', ARGV[4], 'event', ARGV[5], 'payload', ARGV[6], 'at', ARGV[7])
end
return false`;

/**
 * outbox-dispatch (job id = outbox row id): publishes the row to its organization's Redis
 * stream `${REDIS_PREFIX}events:org:${org_id}` and stamps it dispatched. Consumers (SSE,
 * webhooks) read the stream; `event_id` is the outbox id for their own de-duplication.
 */
export function makeOutboxDispatchJob(deps: TOutboxJobDeps) {
  const outbox = makeOutboxRepo(deps.db.primary);
  return async (payload: TQueuePayload<'outbox-dispatch'>): Promise<unknown> => {
    const row = await outbox.byId(payload.outbox_id);
    if (!row || row.dispatchedAt) return { skipped: true };
    let entry: unknown = null;
    if (row.orgId) {
      entry = await deps.redis.eval(
        PUBLISH_ONCE,
        2,
        orgStreamKey(deps.redisPrefix, row.orgId),
        `${deps.redisPrefix}outbox:published:${row.id}`,
        String(PUBLISHED_MARKER_TTL_SECONDS),
        String(ORG_STREAM_MAXLEN),
        row.id,
        row.topic,
        row.event,
        JSON.stringify(row.payload),
        row.createdAt.toISOString(),
      );
    }
    await outbox.markDispatched(row.id);
    return { stream_entry: entry ?? null };
  };
}

/** Rows older than this without a dispatch are considered lost by their own job. */
const SWEEP_GRACE_MS = 5_000;
const SWEEP_BATCH = 500;

/**
 * outbox-sweep (repeatable, and once at boot): re-enqueues rows nobody dispatched — their job
 * was never enqueued (Redis down at commit time) or got lost. Job id = row id, so a row whose job
 * is still waiting is not enqueued twice.
 */
export function makeOutboxSweepJob(deps: Pick<TOutboxJobDeps, 'db' | 'queue' | 'log'>) {
  const outbox = makeOutboxRepo(deps.db.primary);
  return async (): Promise<unknown> => {
    let enqueued = 0;
    const rows = await outbox.undispatched(SWEEP_BATCH, new Date(Date.now() - SWEEP_GRACE_MS));
    for (const row of rows) {
      await deps.queue.enqueue('outbox-dispatch', { outbox_id: row.id }, { jobId: row.id });
      enqueued += 1;
    }
    if (enqueued > 0) deps.log.info({ enqueued }, 'outbox sweep re-enqueued undispatched rows');
    return { enqueued };
  };
}
