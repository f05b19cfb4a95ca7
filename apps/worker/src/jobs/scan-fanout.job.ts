import type { TTarget } from '@palisade/contracts';
import {
  appendOutboxRows,
  appendTimelineEvents,
  createScanInTransaction,
  lockScanRequest,
  makeScanRequestRepo,
  maybeCompleteScanRequest,
  sqlExecutor,
  SCAN_REQUEST_TOPIC,
  type Prisma,
  type TOutboxEvent,
} from '@palisade/db';
import { fanoutScanId, isTerminalScan, scanStartJobs } from '@palisade/domain';
import type { TQueuePayload } from '@palisade/queue';
import { dispatchOutbox, enqueueStartJobs, type TScanJobDeps } from './scan-job-deps';

/** Targets created per transaction: short transactions, and a crash loses at most one batch's work (redone on retry). */
export const FANOUT_BATCH = 50;

/**
 * scan-fanout: creates one scan per target of a request. Scan ids are derived from (request,
 * target index), so a retried or re-run job finds the scans it already made instead of adding
 * more, and appends each timeline event once (with the scan's creation, in its transaction).
 */
export function makeScanFanoutJob(deps: TScanJobDeps) {
  const prisma = deps.db.primary;
  return async (payload: TQueuePayload<'scan-fanout'>): Promise<unknown> => {
    const { org_id: orgId, scan_request_id: requestId } = payload;
    const request = await makeScanRequestRepo(prisma).byId(orgId, requestId);
    if (!request) {
      deps.log.warn({ scanRequestId: requestId }, 'scan request not found; fan-out skipped');
      return { skipped: true };
    }
    if (isTerminalScan(request.status)) return { skipped: true };
    const targets = request.targets as TTarget[];
    const tools = request.tools.length > 0 ? request.tools : undefined;
    const deadlineSeconds = request.deadlineSeconds ?? 3600;

    const started = await prisma.$transaction(async (tx: Prisma.TransactionClient) => {
      const locked = await lockScanRequest(tx, orgId, requestId);
      if (!locked || locked.status !== 'queued') return [];
      await sqlExecutor(tx).query(
        "UPDATE scan_requests SET status = 'running', updated_at = now() WHERE org_id = $1::uuid AND id = $2::uuid",
        [orgId, requestId],
      );
      await appendTimelineEvents(tx, orgId, requestId, [{ type: 'fanout_started', from: 'queued', to: 'running' }]);
      return appendOutboxRows(tx, [
        { orgId, topic: SCAN_REQUEST_TOPIC, event: 'scan_request.status_changed', payload: { scan_request_id: requestId, from: 'queued', to: 'running', at: new Date().toISOString() } },
      ]);
    });
    await dispatchOutbox(deps, started);

    let created = 0;
    for (let from = 0; from < targets.length; from += FANOUT_BATCH) {
      const indices = targets.slice(from, from + FANOUT_BATCH).map((_, i) => from + i);
      const batch = await prisma.$transaction(async (tx: Prisma.TransactionClient) => {
        const out = [];
        for (const index of indices) {
          const now = new Date();
          out.push(
            await createScanInTransaction(tx, {
              orgId,
              scanId: fanoutScanId(requestId, index),
              scanRequestId: requestId,
              target: targets[index],
              tools,
              deadlineAt: new Date(now.getTime() + deadlineSeconds * 1000),
              actor: request.createdByType && request.createdById ? { type: request.createdByType, id: request.createdById } : null,
              correlationId: request.correlationId,
              now,
            }),
          );
        }
        return out;
      }, { timeout: 60_000 });
      // Enqueued for scans made earlier too: a previous run may have died between commit and enqueue.
      for (const made of batch) {
        if (made.created) created += 1;
        if (isTerminalScan(made.scan.status) || !made.scan.deadlineAt) continue;
        const planDeferred = made.scan.plan === 'automatic' && made.scan.tools.length === 0;
        await enqueueStartJobs(deps, scanStartJobs({ orgId, scanId: made.scan.id, deadlineAt: made.scan.deadlineAt, planDeferred, tools: made.scan.tools }));
        await dispatchOutbox(deps, made.outboxIds);
      }
    }

    const finished = await prisma.$transaction(async (tx: Prisma.TransactionClient) => {
      await lockScanRequest(tx, orgId, requestId);
      const { rows } = await sqlExecutor(tx).query(
        "SELECT 1 FROM scan_request_events WHERE org_id = $1::uuid AND scan_request_id = $2::uuid AND type = 'fanout_completed' LIMIT 1",
        [orgId, requestId],
      );
      if (rows.length === 0) await appendTimelineEvents(tx, orgId, requestId, [{ type: 'fanout_completed' }]);
      // Scans that all ended before the fan-out did (fast tools) complete the request here.
      const outbox: TOutboxEvent[] = [];
      await maybeCompleteScanRequest(tx, orgId, requestId, new Date(), outbox);
      return appendOutboxRows(tx, outbox);
    });
    await dispatchOutbox(deps, finished);
    deps.log.info({ scanRequestId: requestId, targets: targets.length, created }, 'scan request fanned out');
    return { targets: targets.length, created };
  };
}
