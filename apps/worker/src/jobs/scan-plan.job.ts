import type { TTarget } from '@palisade/contracts';
import {
  failScanWithoutTools,
  lockScanForUpdate,
  makeScanRepo,
  recordScanPlanned,
  sqlExecutor,
  type Prisma,
} from '@palisade/db';
import { initialToolStatus, isTerminalScan, issueCallbackToken, planReasonText, scanStartJobs } from '@palisade/domain';
import { planAutomatic } from '@palisade/domain/scans/automatic-plan';
import type { TQueuePayload } from '@palisade/queue';
import { CheckoutError, walkFiles } from '@palisade/scanners';
import type { Job } from 'bullmq';
import { withCheckout } from './checkout-dir';
import { dispatchOutbox, enqueueStartJobs, type TScanToolJobDeps } from './scan-job-deps';

// Checkout problems that another attempt will not fix.
const PERMANENT_CHECKOUT_ERRORS = new Set(['invalid_url', 'invalid_ref', 'ref_not_found']);

/**
 * scan-plan: the automatic plan of a repository scan. The API cannot know what a repository
 * contains, so the scan is created without tools; this job clones it, lists its files, asks
 * planAutomatic, and creates the tool rows (recording which plan and why) before the tools run.
 */
export function makeScanPlanJob(deps: TScanToolJobDeps) {
  const prisma = deps.db.primary;
  return async (payload: TQueuePayload<'scan-plan'>, job?: Pick<Job, 'attemptsMade' | 'opts'>): Promise<unknown> => {
    const { org_id: orgId, scan_id: scanId } = payload;
    const scan = await makeScanRepo(prisma).byId(orgId, scanId);
    if (!scan || isTerminalScan(scan.status)) return { skipped: true };
    if (scan.tools.length > 0) {
      // Planned by an earlier attempt that died before enqueuing the tools.
      await enqueueStartJobs(deps, scanStartJobs({ orgId, scanId, deadlineAt: scan.deadlineAt ?? new Date(), planDeferred: false, tools: scan.tools }).filter((j) => j.queue === 'scan-tool'));
      return { skipped: true };
    }
    const target = scan.target as TTarget;
    let plan: { tools: string[]; reason: string };
    try {
      if (target.kind !== 'repository') throw new CheckoutError('invalid_url', `a ${target.kind} target has no checkout`);
      plan = await withCheckout(deps, target, scan.deadlineAt, async (dir) => {
        const files: string[] = [];
        // Lockfiles can be big; the plan needs names, not contents.
        for await (const file of walkFiles(dir, { maxFileBytes: Number.MAX_SAFE_INTEGER })) files.push(file.relPath);
        const chosen = planAutomatic(target, files);
        return { tools: [...chosen.tools], reason: planReasonText(chosen.reason) };
      });
    } catch (error) {
      const last = !job || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const permanent = error instanceof CheckoutError && PERMANENT_CHECKOUT_ERRORS.has(error.code);
      if (!permanent && !last) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const ids = await prisma.$transaction((tx: Prisma.TransactionClient) => failScanWithoutTools(tx, orgId, scanId, `automatic plan failed: ${message}`));
      await dispatchOutbox(deps, ids);
      deps.log.warn({ scanId, err: message }, 'automatic plan failed; scan failed');
      return { failed: message };
    }

    const planned = await prisma.$transaction(async (tx: Prisma.TransactionClient) => {
      const locked = await lockScanForUpdate(tx, orgId, scanId);
      if (locked.tools.length > 0 || isTerminalScan(locked.status)) return null;
      const repo = makeScanRepo(tx);
      const at = new Date();
      await repo.addTools(
        orgId,
        scanId,
        plan.tools.map((tool) => ({ tool, status: initialToolStatus(tool), callbackTokenHash: issueCallbackToken().hash })),
        scan.deadlineAt ?? at,
        at,
      );
      await sqlExecutor(tx).query('UPDATE scans SET plan_reason = $3, updated_at = now() WHERE org_id = $1::uuid AND id = $2::uuid', [orgId, scanId, plan.reason]);
      const outboxIds = await recordScanPlanned(tx, orgId, scanId, plan, at);
      return { scan: await repo.byId(orgId, scanId), outboxIds };
    });
    if (!planned?.scan) return { skipped: true };
    await enqueueStartJobs(deps, scanStartJobs({ orgId, scanId, deadlineAt: planned.scan.deadlineAt ?? new Date(), planDeferred: false, tools: planned.scan.tools }).filter((j) => j.queue === 'scan-tool'));
    await dispatchOutbox(deps, planned.outboxIds);
    deps.log.info({ scanId, tools: plan.tools }, 'automatic plan resolved');
    return { tools: plan.tools, reason: plan.reason };
  };
}
