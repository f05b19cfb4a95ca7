import { closeScan, makeScanRepo, type Prisma } from '@palisade/db';
import { isTerminalScan } from '@palisade/domain';
import type { TQueuePayload } from '@palisade/queue';
import { dispatchOutbox, type TScanJobDeps } from './scan-job-deps';

// A delayed job can fire a little before the deadline when clocks disagree; within this margin
// it counts as on time, beyond it the job fails and BullMQ retries it with backoff.
const EARLY_TOLERANCE_MS = 1000;

export const DEADLINE_ERROR = { error_code: 'deadline_exceeded', message: 'The tool did not finish before the scan deadline.' } as const;

/**
 * scan-deadline: one delayed job per scan (job id scan-deadline-{scan_id}) fires at the scan's
 * deadline, marks every tool still unfinished timed_out and ends the scan with the outcome its
 * tools imply. A scan that already ended is left alone.
 */
export function makeScanDeadlineJob(deps: TScanJobDeps) {
  return async (payload: TQueuePayload<'scan-deadline'>): Promise<unknown> => {
    const scan = await makeScanRepo(deps.db.primary).byId(payload.org_id, payload.scan_id);
    if (!scan || isTerminalScan(scan.status)) return { skipped: true };
    const now = Date.now();
    if (scan.deadlineAt && scan.deadlineAt.getTime() - now > EARLY_TOLERANCE_MS) {
      throw new Error(`scan ${scan.id} deadline not reached yet (${scan.deadlineAt.toISOString()})`);
    }
    const result = await deps.db.primary.$transaction((tx: Prisma.TransactionClient) =>
      closeScan(tx, payload.org_id, payload.scan_id, 'timed_out', { ...DEADLINE_ERROR }, new Date(now)),
    );
    if (!result) return { skipped: true };
    deps.log.info({ scanId: scan.id, timedOut: result.tools.map((tool) => tool.tool), status: result.scan.to }, 'scan deadline reached');
    await dispatchOutbox(deps, result.outboxIds);
    return { status: result.scan.to, timed_out: result.tools.map((tool) => tool.tool) };
  };
}
